// Errors of a run: which node failed, or which guard stopped the run.
import { OnnxtxtError } from "../io/index.js";

export class InterpError extends OnnxtxtError {
  constructor(
    message: string,
    /** The failing node's name or op type, outermost first (subgraph nodes are nested). */
    readonly nodePath: readonly string[] = [],
  ) {
    super(message);
    this.name = "InterpError";
  }
}

/** Thrown when a run is cancelled, runs too long or would use too much memory. */
export class GuardError extends InterpError {}
