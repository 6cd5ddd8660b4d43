#!/usr/bin/env node
// The onnxtxt language server; pass --stdio or --node-ipc. It runs from the single-file bundle
// `npm run build` makes, with a V8 code cache (dist/core/src/node/code-cache.js) written when a
// session without one ends, so that it holds what the session compiled: the server answers
// `initialize` in about 60 ms instead of 250 from the ~300 compiled modules. Those run instead
// when the bundle is missing or older than the last tsc build.
import { fileURLToPath } from "node:url";

const dist = new URL("../dist/", import.meta.url);
const { bundleIsFresh, runCachedSession } = await import(new URL("core/src/node/code-cache.js", dist).href);
const bundle = fileURLToPath(new URL("server/src/main.bundle.cjs", dist));
if (bundleIsFresh(bundle, fileURLToPath(new URL(".tsbuildinfo", dist)))) {
  runCachedSession(bundle, "language-server");
} else {
  await import(new URL("server/src/main.js", dist).href);
}
