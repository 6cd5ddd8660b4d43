// The interpreter: evaluates ONNX models on typed arrays.
export * from "./value.js";
export * from "./registry.js";
export * from "./errors.js";
export * from "./executor.js";
export * from "./tensor-proto.js";
export { Attrs } from "./attrs.js";
export { Rng } from "./rng.js";
export { createDefaultRegistry, defaultRegistry } from "./ops/index.js";
export * from "./compare.js";
export { parseNpy } from "./npy.js";
export { defaultValue } from "./default-inputs.js";
export { summarize } from "./summary.js";
export * from "./tolerance.js";
export { runWithOrt, type OrtOptions } from "./ort-backend.js";
