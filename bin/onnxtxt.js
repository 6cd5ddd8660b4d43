#!/usr/bin/env node
import { main, processOutput } from "../dist/core/src/cli/main.js";

process.exitCode = await main(process.argv.slice(2), processOutput());
