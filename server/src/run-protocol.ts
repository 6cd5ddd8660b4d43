// Messages between the server and its run worker.
import type { RunCellAnswer } from "../../core/src/ide/run-cell.js";

export interface RunJob {
  readonly text: string;
  readonly graph?: string;
  readonly inputs?: Record<string, string>;
  readonly dataSet?: (Uint8Array | undefined)[];
}

export type RunReply =
  | (RunCellAnswer & {
      readonly ok: true;
      readonly graph: string;
      readonly values: [string, string][];
    })
  | { readonly ok: false; readonly message: string };
