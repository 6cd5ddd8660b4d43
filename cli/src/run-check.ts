// Checking a run's results: against onnxruntime (`run --compare ort`) and against the expected
// output_N.pb of a test data set (`run --expect DIR`, on by default with --input-dir).
import * as fs from "node:fs";
import * as path from "node:path";
import { create } from "@bufbuild/protobuf";
import { cloneModel } from "../../core/src/clone.js";
import { ValueInfoProtoSchema, type ModelProto, type NodeProto } from "../../proto/src/index.js";
import { decodeValue, valueKindOf } from "../../core/src/io/index.js";
import {
  backendCompareTolerance,
  describeErrors,
  difference,
  elementTypeOf,
  isFloatType,
  ONNX_BACKEND_TOLERANCE,
  runWithOrt,
  summarize,
  valueFromProto,
  formatSmall,
  type OrtOptions,
  type Tolerance,
  type Value,
} from "../../core/src/interp/index.js";
import type { Output } from "./command.js";
import { readBytes } from "../../core/src/io/files.js";
import { about } from "./model-files.js";
import { escapeControls } from "./terminal-text.js";

/** --rtol / --atol, when given, replace the float tolerances; integers stay exact. */
export interface ToleranceOverride {
  readonly rtol?: number;
  readonly atol?: number;
}

function withOverride(base: Tolerance, dtype: number | undefined, o: ToleranceOverride): Tolerance {
  if (dtype === undefined || (base.rtol + base.atol === 0 && !isFloatType(dtype))) return base;
  return { rtol: o.rtol ?? base.rtol, atol: o.atol ?? base.atol };
}

function toleranceText(t: Tolerance): string {
  return t.rtol + t.atol === 0 ? "exactly" : `within rtol ${formatSmall(t.rtol)}, atol ${formatSmall(t.atol)}`;
}

/** onnxruntime's warnings reach a terminal; a pipe or log gets its errors only (its lines are coloured). */
export function ortOptions(io: Output, modelPath?: string): OrtOptions {
  return { logSeverityLevel: io.interactive ? 2 : 3, ...(modelPath !== undefined && { modelPath }) };
}

/** Runs a model observing each main-graph node's outputs (the slow pass of a comparison). */
type ObservedRun = (observe: (node: NodeProto, outs: readonly (Value | undefined)[]) => void) => Promise<unknown>;

/**
 * Compares `mine` (the outputs of a plain run) with onnxruntime's outputs, one line per output
 * with the largest errors. Only when an output differs does a second, observed run look for
 * the first node whose outputs differ, so an agreeing comparison costs one run of each backend.
 */
export async function compareWithOrt(
  model: ModelProto,
  feeds: ReadonlyMap<string, Value>,
  mine: ReadonlyMap<string, Value>,
  io: Output,
  o: ToleranceOverride,
  observedRun: ObservedRun,
  modelPath?: string,
): Promise<number> {
  const theirs = await runWithOrt(model, feeds, undefined, ortOptions(io, modelPath));
  const tolFor = (v: Value | undefined): Tolerance => {
    const dtype = elementTypeOf(v);
    return withOverride(backendCompareTolerance(dtype), dtype, o);
  };
  let differs = 0;
  for (const out of model.graph!.output) {
    const d = difference(mine.get(out.name), theirs.get(out.name), tolFor(theirs.get(out.name)));
    const name = escapeControls(out.name);
    if (d.mismatch) differs++;
    io.out(
      d.mismatch
        ? `compare ort: ${name} differs: ${d.mismatch} (${describeErrors(d)}; tolerance ${toleranceText(d.tolerance)})\n`
        : `compare ort: ${name} agrees ${toleranceText(d.tolerance)} (${describeErrors(d)})\n`,
    );
  }
  if (differs === 0) {
    io.out("all outputs agree with onnxruntime\n");
    return 0;
  }
  await firstDifferingNode(model, feeds, io, tolFor, observedRun);
  return 1;
}

/** The second pass: every intermediate value of both backends, in node order. */
async function firstDifferingNode(
  model: ModelProto,
  feeds: ReadonlyMap<string, Value>,
  io: Output,
  tolFor: (v: Value | undefined) => Tolerance,
  observedRun: ObservedRun,
): Promise<void> {
  const seen = new Map<string, Value>();
  const order: NodeProto[] = [];
  await observedRun((node, outs) => {
    order.push(node);
    node.output.forEach((n, i) => {
      const v = outs[i];
      if (n && v) seen.set(n, v);
    });
  });
  const wanted = [...seen.keys()];
  const probe = cloneModel(model);
  const existing = new Set(probe.graph!.output.map((v) => v.name));
  for (const name of wanted) if (!existing.has(name)) probe.graph!.output.push(create(ValueInfoProtoSchema, { name }));
  let theirs: Map<string, Value>;
  try {
    theirs = await runWithOrt(probe, feeds, wanted, ortOptions(io));
  } catch {
    return;
  }
  // outputs nobody reads (such as an inference Dropout's mask) are not compared
  const read = new Set(model.graph!.output.map((v) => v.name));
  for (const node of order) for (const i of node.input) read.add(i);
  for (const node of order) {
    for (const name of node.output) {
      if (!name || !theirs.has(name) || !read.has(name)) continue;
      const d = difference(seen.get(name), theirs.get(name), tolFor(theirs.get(name)));
      if (d.mismatch) {
        io.out(
          `first difference at node ${escapeControls(node.name || "(unnamed)")} (${node.opType}), output '${escapeControls(name)}': ${d.mismatch} (${describeErrors(d)})\n`,
        );
        io.out(`  interp: ${summarize(seen.get(name)!)}\n  ort:    ${summarize(theirs.get(name)!)}\n`);
        return;
      }
    }
  }
}

/**
 * Compares the outputs with DIR/output_N.pb (N the output's position) with onnx's backend test
 * tolerances; returns 1 when one differs. Outputs with no file are not compared; a folder
 * with no output file at all says so. `quiet` leaves out the outputs that match.
 */
export function checkExpected(dir: string, model: ModelProto, outputs: ReadonlyMap<string, Value>, io: Output, o: ToleranceOverride, quiet = false): number {
  let compared = 0;
  let differs = 0;
  model.graph!.output.forEach((out, i) => {
    const file = path.join(dir, `output_${i}.pb`);
    if (!fs.existsSync(file)) return;
    const bytes = readBytes(file);
    const expected = about(file, () => valueFromProto(decodeValue(bytes, valueKindOf(out.type))));
    const dtype = elementTypeOf(expected);
    const tol = withOverride(dtype !== undefined && !isFloatType(dtype) ? { rtol: 0, atol: 0 } : ONNX_BACKEND_TOLERANCE, dtype, o);
    const d = difference(outputs.get(out.name), expected, tol);
    compared++;
    const name = escapeControls(out.name);
    if (d.mismatch) {
      differs++;
      io.out(`expect: ${name} differs from ${file}: ${d.mismatch} (${describeErrors(d)}; tolerance ${toleranceText(tol)})\n`);
    } else if (!quiet) io.out(`expect: ${name} matches ${path.basename(file)} ${toleranceText(tol)} (${describeErrors(d)})\n`);
  });
  if (compared === 0) io.err(`onnxtxt: ${dir}: no output_N.pb to compare with\n`);
  return differs > 0 ? 1 : 0;
}
