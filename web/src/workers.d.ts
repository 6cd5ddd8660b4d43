// Scripts the build embeds as text (scripts/build-playground.ts), so that workers start from
// Blob URLs: a page opened from file:// may not start a worker from a file.
declare module "playground:workers" {
  /** The language server (server/src/browser-main.ts). */
  export const languageServer: string;
  /** The interpreter's worker (web/src/run-worker.ts). */
  export const runWorker: string;
  /** Monaco's own editor worker. */
  export const editorWorker: string;
  /** elkjs's layout worker, for the graph view. */
  export const elkWorker: string;
}

declare module "playground:examples" {
  /** examples/*.onnxtxt: file name -> text. */
  export const examples: Readonly<Record<string, string>>;
}
