// Sidecar files of written models: named after their content (`OUT.<16 hex>.data`), so a new
// sidecar never replaces the one the current OUT refers to; written before OUT, never over a
// different file; the ones OUT no longer refers to are removed after OUT is replaced.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { FileError, ioMessage } from "./files.js";
import { writeOutput } from "./write-output.js";

const HASH_CHARS = 16;

function digest(chunks: readonly Uint8Array[]): string {
  const h = crypto.createHash("sha256");
  for (const c of chunks) h.update(c);
  return h.digest("hex").slice(0, HASH_CHARS);
}

/** `OUT.<hash of the content>.data`, beside OUT. */
export function sidecarName(output: string, chunks: readonly Uint8Array[]): string {
  return `${path.basename(output)}.${digest(chunks)}.data`;
}

function fileDigest(fd: number): string {
  const h = crypto.createHash("sha256");
  const buf = Buffer.allocUnsafe(1 << 20);
  for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) h.update(buf.subarray(0, n));
  return h.digest("hex").slice(0, HASH_CHARS);
}

/**
 * Writes the sidecar, or keeps an identical one already there; anything else there is refused.
 * Returns true when the file was created (so a failure after it may remove it again).
 */
export function writeSidecar(file: string, chunks: readonly Uint8Array[]): boolean {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) {
    writeOutput(file, chunks);
    return true;
  }
  if (!st.isFile()) throw new FileError(file, "exists and is not a regular file; not replacing it");
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    if (fileDigest(fd) === digest(chunks)) return false;
  } catch (e) {
    throw new FileError(file, ioMessage(e));
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  throw new FileError(file, "exists with other content; not replacing it");
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Removes the earlier sidecars of OUT (`<base>.<hash>.data`) other than `keep`. */
export function removeOldSidecars(dir: string, base: string, keep: string): void {
  const pattern = new RegExp(`^${escapeRegExp(base)}\\.[0-9a-f]{${HASH_CHARS}}\\.data$`);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === keep || !pattern.test(name)) continue;
    const file = path.join(dir, name);
    try {
      if (fs.lstatSync(file).isFile()) fs.unlinkSync(file);
    } catch {
      // removed by someone else meanwhile
    }
  }
}
