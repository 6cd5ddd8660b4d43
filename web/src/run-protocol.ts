// Messages between the page and its run worker (run-worker.ts).
import type { RunCellOutput } from "../../core/src/ide/run-cell.js";

export interface RunRequest {
  readonly text: string;
}

export type RunResult =
  | { readonly ok: true; readonly outputs: readonly RunCellOutput[]; readonly elapsedMs: number; readonly inputSources: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly message: string };
