// The shape every CLI subcommand has; main.ts dispatches on `name`.

export interface Output {
  /** Results on stdout (bytes for binary models). */
  out(data: string | Uint8Array): void;
  /**
   * Bytes on stdout, written before it returns (the caller reuses the buffer): how big texts
   * are streamed. Absent where only `out` works.
   */
  outSync?(bytes: Uint8Array): void;
  /** Messages on stderr. */
  err(text: string): void;
  /** A progress line on stderr, written as is (it uses `\r` and erase-line escapes). */
  status(text: string): void;
  /** True when stderr is a terminal: progress is shown only then. */
  readonly interactive: boolean;
  /** True when stdout is a terminal: binary output is refused there. */
  readonly outIsTerminal?: boolean;
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Returns the exit code: 0 ok, 1 the input has errors, 2 usage or IO error. */
  run(argv: readonly string[], io: Output): number | Promise<number>;
}
