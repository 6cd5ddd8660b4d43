// An in-memory EditorHost: files in a map, messages recorded, answers to questions scripted.
import type { EditorHost } from "../../client-vscode/src/editor-host.js";
import type { UriParts } from "../../client-vscode/src/uris.js";

export function fileUri(path: string, scheme = "file"): UriParts {
  return { scheme, authority: "", path, query: "", fragment: "" };
}

const key = (u: UriParts): string => `${u.scheme}://${u.authority}${u.path}`;

export class FakeHost implements EditorHost {
  readonly files = new Map<string, Uint8Array>();
  readonly infos: string[] = [];
  readonly errors: string[] = [];
  readonly questions: string[] = [];
  /** The answer to the next question(s); undefined dismisses. */
  answer: string | undefined;
  failWrites = false;

  put(uri: UriParts, bytes: Uint8Array | string): void {
    this.files.set(key(uri), typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes);
  }

  get(uri: UriParts): Uint8Array | undefined {
    return this.files.get(key(uri));
  }

  async exists(uri: UriParts): Promise<boolean> {
    return this.files.has(key(uri));
  }

  async readFile(uri: UriParts): Promise<Uint8Array> {
    const bytes = this.files.get(key(uri));
    if (!bytes) throw new Error(`no such file: ${uri.path}`);
    return bytes;
  }

  async writeFile(uri: UriParts, bytes: Uint8Array): Promise<void> {
    if (this.failWrites) throw new Error("disk full");
    this.files.set(key(uri), bytes);
  }

  info(message: string): void {
    this.infos.push(message);
  }

  error(message: string): void {
    this.errors.push(message);
  }

  async ask<A extends string>(message: string, ...actions: A[]): Promise<A | undefined> {
    this.questions.push(message);
    return actions.find((a) => a === this.answer);
  }

  async suggest<A extends string>(message: string, ...actions: A[]): Promise<A | undefined> {
    return this.ask(message, ...actions);
  }
}
