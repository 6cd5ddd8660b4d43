// What every step of a comparison shares: the options, each side's places, the changes found.
import { OnnxtxtError } from "../io/errors.js";
import type { Places } from "./places.js";
import type { TensorRules } from "./tensors.js";
import type { Change, RemovedNode } from "./types.js";

/** Subgraphs nested deeper than this are refused with a message rather than a stack overflow. */
export const MAX_DEPTH = 400;

export interface DiffContext {
  readonly ignoreNames: boolean;
  readonly tensors: TensorRules;
  readonly a: Places;
  readonly b: Places;
  readonly changes: Change[];
  /** For each body of B (its proto), B's names of values paired with a differently named A value -> A's names. */
  readonly renames: Map<object, Map<string, string>>;
  /** The removed nodes of bodies the graph view draws, wired into B's drawing. */
  readonly removed: RemovedNode[];
}

export function checkDepth(depth: number, path: string): void {
  if (depth > MAX_DEPTH) throw new OnnxtxtError(`${path}: subgraphs are nested more than ${MAX_DEPTH} levels deep; not compared`);
}
