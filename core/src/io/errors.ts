// Errors the core reports for bad input. They carry a plain message (and, when known, a
// location) so the CLI and the server can show one line instead of a stack trace.

export class OnnxtxtError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OnnxtxtError";
  }
}

/** A human-readable reason for any thrown value, without a stack. */
export function describeError(e: unknown): string {
  if (e instanceof RangeError && /call stack/i.test(e.message)) return "input is nested too deeply";
  if (e instanceof Error) return e.message;
  return String(e);
}
