// Comparing two models: `diffModels` and the shape of its result (docs/diff.md).
export { diffModels, type ModelDiff, type PlacesKind } from "./diff-models.js";
export type { Change, ChangeKind, DiffInput, DiffOptions, DiffResult, DiffSide, ExternalDataSource, Place, TensorDifference } from "./types.js";
export { unifiedDiff } from "./unified.js";
export { unifiedText } from "./line-diff.js";
