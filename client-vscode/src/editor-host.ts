// The editor services the commands use: the boundary where tests stub VS Code.
import type { UriParts } from "./uris.js";

export interface FileAccess {
  exists(uri: UriParts): Promise<boolean>;
  readFile(uri: UriParts): Promise<Uint8Array>;
  writeFile(uri: UriParts, bytes: Uint8Array): Promise<void>;
}

export interface Messages {
  info(message: string): void;
  error(message: string): void;
  /** A modal question; resolves to the chosen action, or undefined when dismissed. */
  ask<A extends string>(message: string, ...actions: A[]): Promise<A | undefined>;
  /** A non-modal notification with buttons; resolves to the chosen one, or undefined. */
  suggest<A extends string>(message: string, ...actions: A[]): Promise<A | undefined>;
}

export interface EditorHost extends FileAccess, Messages {}
