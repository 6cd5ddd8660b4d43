// Messages between the server and its run worker.
export interface RunJob {
  readonly text: string;
  readonly graph?: string;
  readonly inputs?: Record<string, string>;
  readonly dataSet?: (Uint8Array | undefined)[];
}

export type RunReply =
  | {
      readonly ok: true;
      readonly outputs: { name: string; type: string; text: string }[];
      readonly elapsedMs: number;
      readonly inputSources: Record<string, string>;
      readonly graph: string;
      readonly values: [string, string][];
    }
  | { readonly ok: false; readonly message: string };
