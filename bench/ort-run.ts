// What a user of onnxruntime-node does at the command line: create a session for a model
// and run it once. Run as its own process by the benchmark, which times the whole process.
// Usage: node dist/bench/ort-run.js MODEL INPUT_NAME INPUT.f32 DIMS(comma) OUTPUT.f32
// Writes the first output's float32 data, and its dims to OUTPUT.f32.json.

import { readFileSync, writeFileSync } from "node:fs";
import * as ort from "onnxruntime-node";

const [model, inputName, inputFile, dimsText, outputFile] = process.argv.slice(2) as [string, string, string, string, string];
const dims = dimsText.split(",").map(Number);
const raw = readFileSync(inputFile);
const input = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
const session = await ort.InferenceSession.create(model);
const results = await session.run({ [inputName]: new ort.Tensor("float32", input, dims) });
const output = results[session.outputNames[0]!]!;
const data = output.data as Float32Array;
writeFileSync(outputFile, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
writeFileSync(`${outputFile}.json`, JSON.stringify(output.dims));
