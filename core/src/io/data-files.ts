// Reading files that a model or a test folder points at (external data, input_N.pb) under
// onnx's rules for external data: a regular file only, inside its folder (links inside it are
// fine, links out are not), a single hard link, offset and length within the file. Each file
// is checked before it is opened (so a FIFO or /dev/zero is never read), then opened with
// O_NOFOLLOW|O_NONBLOCK and checked again on the open descriptor. The CLI reads synchronously;
// the language server uses the async form so that it never blocks on file IO.
import * as fs from "node:fs";
import * as path from "node:path";
import type { ExternalDataCheck, RangeReader } from "./index.js";
import { FileError, ioMessage } from "./files.js";

export interface ReadRules {
  /** The file must resolve inside this folder. */
  readonly within?: string;
  /** How the folder is named in messages: "the model's folder", "the input folder". */
  readonly folderName?: string;
  /** Refuse a file with several hard links (onnx: "a potential hardlink attack"). */
  readonly singleLink?: boolean;
  /** Refuse a file bigger than this. */
  readonly maxBytes?: number;
  /** What the file is, at the start of messages ("external data"). */
  readonly label?: string;
}

interface StatLike {
  readonly ino: number;
  readonly dev: number;
  readonly size: number;
  readonly nlink: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}

const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

function kindOf(st: StatLike): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

function isInside(realBase: string, real: string): boolean {
  const rel = path.relative(realBase, real);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** The problem with `st` under `rules`, checked before opening and again on the descriptor. */
function statProblem(st: StatLike, rules: ReadRules): string | undefined {
  if (!st.isFile()) return `is ${kindOf(st)}, not a regular file`;
  if (rules.singleLink && st.nlink > 1) return `has ${st.nlink} hard links; refusing it as a potential hard-link attack (as onnx does)`;
  if (rules.maxBytes !== undefined && st.size > rules.maxBytes) return `is ${st.size} bytes, more than the limit of ${rules.maxBytes} bytes`;
  return undefined;
}

function placeProblem(real: string, realBase: string | undefined, rules: ReadRules): string | undefined {
  if (realBase !== undefined && !isInside(realBase, real)) return `is a link to a file outside ${rules.folderName ?? "its folder"}`;
  return undefined;
}

function sameFile(a: StatLike, b: StatLike): boolean {
  return a.ino === b.ino && a.dev === b.dev;
}

function fail(file: string, e: unknown, rules: ReadRules = {}): never {
  const message = e instanceof FileError ? e.message : ioMessage(e);
  throw new FileError(file, rules.label ? `${rules.label} ${message}` : message);
}

/** Opens `file` for reading after checking it under `rules`; returns the descriptor and size. */
export function openChecked(file: string, rules: ReadRules): { fd: number; size: number } {
  let fd: number | undefined;
  try {
    const real = fs.realpathSync(file);
    const realBase = rules.within === undefined ? undefined : fs.realpathSync(rules.within);
    const before = fs.lstatSync(real);
    const problem = placeProblem(real, realBase, rules) ?? statProblem(before, rules);
    if (problem) throw new FileError(file, problem);
    fd = fs.openSync(real, OPEN_FLAGS);
    const st = fs.fstatSync(fd);
    if (!sameFile(before, st)) throw new FileError(file, "changed while it was being opened");
    const again = statProblem(st, rules);
    if (again) throw new FileError(file, again);
    return { fd, size: st.size };
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd);
    fail(file, e, rules);
  }
}

function readAt(fd: number, length: number, offset: number): Uint8Array {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, buf, done, length - done, offset + done);
    if (n === 0) break;
    done += n;
  }
  return done === length ? buf : buf.subarray(0, done);
}

/** The whole of `file`, checked under `rules`. */
export function readChecked(file: string, rules: ReadRules): Uint8Array {
  const { fd, size } = openChecked(file, rules);
  try {
    return readAt(fd, size, 0);
  } catch (e) {
    fail(file, e);
  } finally {
    fs.closeSync(fd);
  }
}

/** The problem with reading `length` bytes at `offset` of a file of `size` bytes. */
export function rangeProblem(size: number, offset: number, length: number | undefined): string | undefined {
  if (offset > size) return `offset ${offset} is past the end of the file (${size} bytes)`;
  if (length !== undefined && offset + length > size) return `${length} bytes at offset ${offset} run past the end of the file (${size} bytes)`;
  return undefined;
}

/** onnx's rules for the external data of a model in `baseDir`. */
function externalDataRules(baseDir: string): ReadRules {
  return { within: baseDir, folderName: "the model's folder", singleLink: true, label: "external data" };
}

/**
 * Opens the file at `absPath` under onnx's rules for the external data of a model in `baseDir`,
 * checks the range, and gives the open file to `use`.
 */
function withDataRange<T>(baseDir: string, use: (fd: number, size: number, offset: number, length: number | undefined) => T) {
  const rules = externalDataRules(baseDir);
  return (absPath: string, offset: number, length: number | undefined): T => {
    const { fd, size } = openChecked(absPath, rules);
    try {
      const problem = rangeProblem(size, offset, length);
      if (problem) throw new FileError(absPath, problem);
      return use(fd, size, offset, length);
    } catch (e) {
      fail(absPath, e, rules);
    } finally {
      fs.closeSync(fd);
    }
  };
}

/** Reads external data of a model in `baseDir` under onnx's rules. */
export function readDataRange(baseDir: string): RangeReader {
  return withDataRange(baseDir, (fd, size, offset, length) => readAt(fd, length ?? size - offset, offset));
}

/**
 * Checks external data of a model in `baseDir` as readDataRange would read it, reading nothing:
 * for another program (onnxruntime) that reads the files itself after us.
 */
export function checkDataRange(baseDir: string): ExternalDataCheck {
  return withDataRange(baseDir, () => undefined);
}

/** The async form of readChecked, for the language server: no step blocks the event loop. */
export async function readCheckedAsync(file: string, rules: ReadRules): Promise<Uint8Array> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    const real = await fs.promises.realpath(file);
    const realBase = rules.within === undefined ? undefined : await fs.promises.realpath(rules.within);
    const before = await fs.promises.lstat(real);
    const problem = placeProblem(real, realBase, rules) ?? statProblem(before, rules);
    if (problem) throw new FileError(file, problem);
    handle = await fs.promises.open(real, OPEN_FLAGS);
    const st = await handle.stat();
    if (!sameFile(before, st)) throw new FileError(file, "changed while it was being opened");
    const again = statProblem(st, rules);
    if (again) throw new FileError(file, again);
    const buf = Buffer.allocUnsafe(st.size);
    let done = 0;
    while (done < st.size) {
      const { bytesRead } = await handle.read(buf, done, st.size - done, done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === st.size ? buf : buf.subarray(0, done);
  } catch (e) {
    return fail(file, e, rules);
  } finally {
    await handle?.close();
  }
}
