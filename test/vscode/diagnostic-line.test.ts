// One diagnostic-line form for the CLI and the editor: the extension's "Convert to Binary" shows
// a failed conversion with the very lines `onnxtxt convert` prints for the same file.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { coreConverter } from "../../client-vscode/src/core-converter.js";
import { diagnosticLine } from "../../core/src/diagnostic-lines.js";
import { runCli } from "../helpers/cli.js";

const BAD = `<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y) {
  y = Relu(missing)
  z = Bogus(
}
`;

describe("diagnostic lines", () => {
  it("read FILE:LINE:COL: severity: message [code], or FILE: severity: where: message [code] without a position", () => {
    const message = { severity: "error", code: "c", message: "two\nlines" } as const;
    assert.equal(diagnosticLine("m.onnx", undefined, { ...message, where: "graph g, node 3" }), "m.onnx: error: graph g, node 3: two\\nlines [c]");
  });

  it("are the same in the extension's conversion and the CLI's", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-lines-"));
    try {
      const file = path.join(dir, "bad.onnxtxt");
      fs.writeFileSync(file, BAD);
      const cli = runCli(["convert", file, path.join(dir, "bad.onnx")]);
      assert.equal(cli.code, 1, cli.stderr);
      const editor = coreConverter.textToBinary(BAD, file, { baseDir: dir, read: () => new Uint8Array(0) });
      assert.ok(!editor.ok);
      assert.ok(editor.errors.length > 0 && /:\d+:\d+: error: /.test(editor.errors[0] ?? ""), editor.errors.join("\n"));
      for (const line of editor.errors) assert.ok(cli.stderr.split("\n").includes(line), `the CLI did not print\n${line}\nit printed\n${cli.stderr}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
