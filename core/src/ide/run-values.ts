// The values one run computed, keyed by value name per graph, printed as tensor constants.
export interface RunValues {
  /** The graph or function that ran. */
  readonly graph: string;
  /** Value name -> its value as a tensor constant (`float[2] {4, 6}`). */
  readonly values: ReadonlyMap<string, string>;
  readonly elapsedMs: number;
}
