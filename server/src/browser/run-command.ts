// The browser build's `onnxtxt.run`, in place of run-command.ts (which reads test_data_set_0
// from disk and runs in a worker thread, both Node-only). A page runs models in a worker of its
// own (the playground's Run button), so the server says so instead of running in its thread.
import { ErrorCodes, ResponseError } from "vscode-languageserver/node";
import type { RunCellAnswer } from "../../../core/src/ide/run-cell.js";
import type { Workspace } from "../workspace.js";

export const RUN_UNAVAILABLE =
  "onnxtxt.run is not available in the browser language server: the page runs models in a worker of its own (in the playground, the Run button)";

export async function runCommand(_workspace: Workspace, _args: unknown): Promise<RunCellAnswer> {
  throw new ResponseError(ErrorCodes.InvalidRequest, RUN_UNAVAILABLE);
}

export { runSummary } from "../run-summary.js";
