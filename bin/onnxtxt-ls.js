#!/usr/bin/env node
// The onnxtxt language server; pass --stdio or --node-ipc.
import "../dist/server/src/main.js";
