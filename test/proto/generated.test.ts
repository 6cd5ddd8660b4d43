// The committed protobuf bindings are what the generators make of proto/onnx.proto today.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DECODER_FILE, generatedDecoderText } from "../../scripts/gen-decoder.js";
import { ENCODER_FILE, generatedEncoderText } from "../../scripts/gen-encoder.js";
import { REPO } from "../helpers/paths.js";

describe("generated proto bindings", () => {
  it("are fresh", () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-gen-"));
    try {
      execFileSync(process.execPath, [path.join(REPO, "scripts/gen-proto.mjs"), out], { stdio: "pipe" });
      const fresh = fs.readFileSync(path.join(out, "gen/onnx_pb.ts"), "utf8");
      const committed = fs.readFileSync(path.join(REPO, "proto/gen/onnx_pb.ts"), "utf8");
      assert.ok(fresh === committed, "proto/gen/onnx_pb.ts is stale: run `npm run gen` and commit the result");
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it("include the decoders scripts/gen-decoder.ts makes of them", () => {
    assert.ok(fs.readFileSync(DECODER_FILE, "utf8") === generatedDecoderText(), "proto/gen/onnx_decode.ts is stale: run `npm run gen` and commit the result");
  });

  it("include the encoders scripts/gen-encoder.ts makes of them", () => {
    assert.ok(fs.readFileSync(ENCODER_FILE, "utf8") === generatedEncoderText(), "proto/gen/onnx_encode.ts is stale: run `npm run gen` and commit the result");
  });
});
