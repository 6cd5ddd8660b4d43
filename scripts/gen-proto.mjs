#!/usr/bin/env node
// Regenerates proto/gen from proto/onnx.proto with buf and protoc-gen-es (both from npm).
// Usage: node scripts/gen-proto.mjs [OUT_DIR]   (default: proto, i.e. proto/gen)
//
// buf comes as its Linux x64 build package directly: the `@bufbuild/buf` wrapper lists every
// platform's build as an optional dependency, and the registry reachable here lacks some of
// them, which leaves a lock file that `npm ci` rejects. The project's machines are Linux x64.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.resolve(process.argv[2] ?? path.join(root, "proto"));
const bin = path.join(root, "node_modules", ".bin");
const buf = path.join(root, "node_modules", "@bufbuild", "buf-linux-x64", "bin", "buf");
if (!fs.existsSync(buf)) {
  console.error(`gen-proto: ${buf} is missing (it is a devDependency for Linux x64; run npm ci)`);
  process.exit(2);
}
execFileSync(buf, ["generate", "proto", "--template", "proto/buf.gen.yaml", "-o", out], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`, BUF_CACHE_DIR: path.join(out, ".buf-cache") },
});
