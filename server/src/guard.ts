// A failing request must not take the server down: log it and answer with an error.
import { ErrorCodes, ResponseError, type Connection } from "vscode-languageserver";
import { paramsProblem } from "./params.js";

export function describe(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}

/**
 * Wraps a request handler: malformed params are answered with InvalidParams and a one-line
 * reason; an exception becomes a logged InternalError response.
 */
export function guarded<P extends unknown[], R>(connection: Connection, name: string, handler: (...args: P) => R | Promise<R>): (...args: P) => Promise<R> {
  return async (...args: P): Promise<R> => {
    const problem = paramsProblem(name, args[0]);
    if (problem) throw new ResponseError(ErrorCodes.InvalidParams, `${name}: ${problem}`);
    try {
      return await handler(...args);
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      connection.console.error(`${name} failed: ${describe(e)}`);
      throw new ResponseError(ErrorCodes.InternalError, `${name} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
}
