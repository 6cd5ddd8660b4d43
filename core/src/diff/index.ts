// Comparing two models: `diffModels` and the shape of its result (docs/diff.md).
export { compareModels, diffModels, type ModelDiff, type PlacesKind } from "./diff-models.js";
export type { Change, ChangeKind, DiffInput, DiffOptions, DiffResult, DiffSide, ExternalDataSource, Place, RemovedNode, TensorDifference } from "./types.js";
export { unifiedDiff } from "./unified.js";
export { unifiedText } from "./line-diff.js";
