// The shape every CLI subcommand has; main.ts dispatches on `name`.

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal: progress is shown only then. */
  readonly interactive: boolean;
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Returns the exit code: 0 ok, 1 the input has errors, 2 usage or IO error. */
  run(argv: readonly string[], io: Output): number | Promise<number>;
}
