#!/usr/bin/env node
// Regenerates proto/gen from proto/onnx.proto with buf and protoc-gen-es (both from npm).
// Usage: node scripts/gen-proto.mjs [OUT_DIR]   (default: proto, i.e. proto/gen)
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.resolve(process.argv[2] ?? path.join(root, "proto"));
const bin = path.join(root, "node_modules", ".bin");
execFileSync(path.join(bin, "buf"), ["generate", "proto", "--template", "proto/buf.gen.yaml", "-o", out], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`, BUF_CACHE_DIR: path.join(out, ".buf-cache") },
});
