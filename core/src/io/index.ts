export * from "./binary.js";
export * from "./errors.js";
export * from "./external-data.js";
export * from "./wire-check.js";
