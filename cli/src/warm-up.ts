// The work a CLI start-up snapshot is taken after (cli/src/snapshot-builder.ts): the core's
// common paths run once on a small model, so that the snapshot holds their compiled code and
// a command's first parse, check, encode, decode and print do not compile them again. Only
// pure work: no file, no environment, no timer, nothing a snapshot cannot hold or that would
// be stale when it is deserialised. No fractions either: floats are spelled by a WebAssembly
// module, and Node has no WebAssembly while it builds a snapshot.
import { checkModel } from "../../core/src/check/index.js";
import { decodeModel, encodeModel } from "../../core/src/io/binary.js";
import { formatText } from "../../core/src/print/format.js";
import { printModel } from "../../core/src/print-model.js";
import { modelFromText, modelOnlyFromText } from "../../core/src/text.js";
import type { ModelProto } from "../../proto/src/index.js";
import type { SnapshotCommand } from "./snapshot-request.js";

/** A small model with what most texts have: a header, typed inputs, initializers, attributes, a function. */
const SAMPLE = `# warm-up
<ir_version: 10, opset_import: ["" : 21, "local" : 1], producer_name: "onnxtxt">
net (float[N, 1, 8, 8] image, float[2, 1, 3, 3] kernel, float[3, 32] weights) => (float[N, 3] probs, float[N, 3] other) <
  int64[2] shape = {-1, 32}
> {
  conv = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [1, 1]> (image, kernel)
  act = Relu (conv)
  pooled = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (act)
  flat = Reshape (pooled, shape)
  logits = Gemm <transB = 1> (flat, weights)
  probs = Softmax <axis = 1> (logits)
  other = local.Softmax2 <axis = -1> (probs)
}

<domain: "local", opset_import: ["" : 21]>
Softmax2 <axis: int = 1> (x) => (y) {
  first = Softmax <axis: int = @axis> (x)
  y = Identity (first)
}
`;

/** The commands that have a start-up snapshot, each with the core work it does on every input. */
const WORK: Readonly<Record<SnapshotCommand, (model: ModelProto) => void>> = {
  convert: (model) => {
    checkModel(model, { errorsOnly: true });
    encodeModel(model);
  },
  check: (model) => {
    checkModel(decodeModel(encodeModel(model)), { suggestNames: true });
  },
  print: (model) => {
    const chunks: Uint8Array[] = [];
    printModel(decodeModel(encodeModel(model)), { write: (bytes) => chunks.push(bytes) });
    if (chunks.length === 0) throw new Error("warm-up: the sample printed nothing");
  },
  format: () => {
    if (!formatText(SAMPLE).ok) throw new Error("warm-up: the sample does not format");
  },
};

/** Runs the core work of `command` on SAMPLE; throws if any of it fails. */
export function warmUp(command: string): void {
  const work = Object.hasOwn(WORK, command) ? WORK[command as SnapshotCommand] : undefined;
  if (!work) throw new Error(`warm-up: no start-up snapshot for '${command}'`);
  const { model, diagnostics } = modelFromText(SAMPLE);
  if (!model) throw new Error(`warm-up: the sample does not parse: ${diagnostics[0]?.message}`);
  // Reading a model file takes the other way, lowering as it parses.
  if (!modelOnlyFromText(SAMPLE).model) throw new Error("warm-up: the sample does not read as a model file");
  work(model);
}
