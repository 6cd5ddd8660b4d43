// Running a model with onnxruntime-node for differential testing. The package is loaded
// lazily (dynamic import) so the CLI starts fast and works without it.
import type { ModelProto } from "../../../proto/src/index.js";
import { encodeModel, OnnxtxtError } from "../io/index.js";
import { DT, tensor, type Tensor, type TensorData, type Value } from "./value.js";

interface OrtTensor {
  type: string;
  dims: readonly number[];
  data: unknown;
}

interface OrtModule {
  Tensor: new (type: string, data: unknown, dims: readonly number[]) => OrtTensor;
  InferenceSession: {
    create(
      model: Uint8Array | string,
      options?: Record<string, unknown>,
    ): Promise<{
      outputNames: readonly string[];
      run(feeds: Record<string, OrtTensor>, fetches?: readonly string[]): Promise<Record<string, OrtTensor>>;
    }>;
  };
}

const ORT_TYPES: Partial<Record<number, string>> = {
  [DT.FLOAT]: "float32",
  [DT.DOUBLE]: "float64",
  [DT.INT8]: "int8",
  [DT.UINT8]: "uint8",
  [DT.INT16]: "int16",
  [DT.UINT16]: "uint16",
  [DT.INT32]: "int32",
  [DT.UINT32]: "uint32",
  [DT.INT64]: "int64",
  [DT.UINT64]: "uint64",
  [DT.BOOL]: "bool",
  [DT.STRING]: "string",
  [DT.FLOAT16]: "float16",
};

async function loadOrt(): Promise<OrtModule> {
  try {
    const name = "onnxruntime-node";
    const mod = (await import(name)) as OrtModule & { default?: OrtModule };
    return mod.default ?? mod;
  } catch (e) {
    throw new OnnxtxtError(`--backend ort needs the onnxruntime-node package (npm install onnxruntime-node): ${e instanceof Error ? e.message : String(e)}`);
  }
}

function toOrt(ort: OrtModule, v: Value, name: string): OrtTensor {
  if (v.kind !== "tensor") throw new OnnxtxtError(`input '${name}': onnxruntime runs here with tensor inputs only`);
  const type = ORT_TYPES[v.dtype];
  if (!type) throw new OnnxtxtError(`input '${name}': onnxruntime-node does not take this element type`);
  return new ort.Tensor(type, v.data, v.dims);
}

function fromOrt(o: OrtTensor): Tensor {
  const entry = Object.entries(ORT_TYPES).find(([, n]) => n === o.type);
  if (!entry) throw new OnnxtxtError(`onnxruntime returned an unsupported type '${o.type}'`);
  const dtype = Number(entry[0]);
  const data = dtype === DT.BOOL ? Uint8Array.from(o.data as ArrayLike<number>) : (o.data as TensorData);
  return tensor(dtype, o.dims.map(Number), dtype === DT.STRING ? (o.data as string[]).slice() : data);
}

export interface OrtOptions {
  /**
   * onnxruntime's own log lines (written by its native logger, in colour, straight to stderr):
   * 2 shows warnings, 3 errors only. Default 3, for output that is not a terminal.
   */
  readonly logSeverityLevel?: 0 | 1 | 2 | 3 | 4;
  /**
   * The model's file, when `model` is exactly what it holds: onnxruntime then reads it (and its
   * external data) itself, instead of from an encoded copy of a model with the data inlined.
   */
  readonly modelPath?: string;
}

/** Runs `model` with onnxruntime and returns the requested outputs (default: the graph outputs). */
export async function runWithOrt(
  model: ModelProto,
  feeds: ReadonlyMap<string, Value>,
  fetches?: readonly string[],
  options: OrtOptions = {},
): Promise<Map<string, Value>> {
  const ort = await loadOrt();
  let session;
  try {
    session = await ort.InferenceSession.create(options.modelPath ?? encodeModel(model), {
      graphOptimizationLevel: "disabled",
      logSeverityLevel: options.logSeverityLevel ?? 3,
    });
  } catch (e) {
    throw new OnnxtxtError(`onnxruntime cannot load the model: ${e instanceof Error ? e.message : String(e)}`);
  }
  const inputs: Record<string, OrtTensor> = {};
  for (const [k, v] of feeds) inputs[k] = toOrt(ort, v, k);
  let result;
  try {
    result = await session.run(inputs, fetches ?? session.outputNames);
  } catch (e) {
    throw new OnnxtxtError(`onnxruntime failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const out = new Map<string, Value>();
  for (const [k, v] of Object.entries(result)) out.set(k, fromOrt(v));
  return out;
}
