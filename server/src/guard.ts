// A failing request must not take the server down: log it and answer with an error.
import { ErrorCodes, ResponseError, type Connection } from "vscode-languageserver/node";

export function describe(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}

/** Wraps a request handler so an exception becomes a logged InternalError response. */
export function guarded<P extends unknown[], R>(
  connection: Connection,
  name: string,
  handler: (...args: P) => R | Promise<R>,
): (...args: P) => Promise<R> {
  return async (...args: P): Promise<R> => {
    try {
      return await handler(...args);
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      connection.console.error(`${name} failed: ${describe(e)}`);
      throw new ResponseError(ErrorCodes.InternalError, `${name} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
}
