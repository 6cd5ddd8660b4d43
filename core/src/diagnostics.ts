// Diagnostics are defined beside the grammar (the first stage that reports them); the core
// re-exports them so later stages need not reach into grammar/.
export * from "../../grammar/src/diagnostics.js";
