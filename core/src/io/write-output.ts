// Writing an output file safely. A regular file (or a new one) is written to a temporary file
// beside it and renamed into place, so a failure never leaves half a file. The temporary name
// is unpredictable and created exclusively (O_EXCL|O_NOFOLLOW): a link planted in the folder is
// never written through. A character device, FIFO or pipe (`/dev/null`, `/proc/self/fd/1`) is
// written directly: renaming over it would replace the device with a regular file.
// Temporary files are removed on SIGINT/SIGTERM/SIGHUP; those of a process that died without
// cleaning up (SIGKILL, power loss) are removed the next time something is written there.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { FileError, ioMessage } from "./files.js";

/**
 * What writeOutput accepts: text (written as UTF-8), bytes, bytes in pieces, or a function that
 * produces the bytes piece by piece (a big model's text, never whole in memory). Each piece is
 * written before the function goes on, so it may reuse its buffer.
 */
export type OutputData = string | Uint8Array | readonly Uint8Array[] | ((write: (bytes: Uint8Array) => void) => void);

const TEMP_SUFFIX = ".onnxtxt-tmp";
/** `.<name>.<pid>.<16 hex>.onnxtxt-tmp`: the pid says whether its writer is still alive. */
const TEMP_NAME = /^\..*\.(\d+)\.[0-9a-f]{16}\.onnxtxt-tmp$/;

/** Temporary files this process has open; removed on a signal. */
const liveTemps = new Set<string>();
let handlersInstalled = false;

function removeLiveTemps(): void {
  for (const t of liveTemps) {
    try {
      fs.unlinkSync(t);
    } catch {
      // already gone
    }
  }
  liveTemps.clear();
}

/**
 * Once a temporary file exists, a signal first removes it, then takes its default course (the
 * process ends with that signal). Work that is synchronous finishes its write before the
 * handler runs, so the handler sees either a renamed output or a temp file to remove.
 */
function installSignalCleanup(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const handler = (): void => {
      removeLiveTemps();
      process.removeListener(signal, handler);
      process.kill(process.pid, signal);
    };
    process.on(signal, handler);
  }
  process.on("exit", removeLiveTemps);
}

/**
 * Lets a signal that arrived during synchronous work be handled (its handler removes temp files
 * and ends the process). Loops over many files await this between files, so Ctrl-C stops them.
 */
export function yieldToSignals(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

const cleanedDirs = new Set<string>();

/** Removes temp files that a dead onnxtxt process left in `dir` (once per folder and run). */
function removeStaleTemps(dir: string): void {
  if (cleanedDirs.has(dir)) return;
  cleanedDirs.add(dir);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    const file = path.join(dir, name);
    try {
      const st = fs.lstatSync(file);
      if (st.isFile() && (uid === undefined || st.uid === uid)) fs.unlinkSync(file);
    } catch {
      // raced with another cleaner, or not ours to remove
    }
  }
}

function writePiece(fd: number, piece: Uint8Array): void {
  let done = 0;
  while (done < piece.length) {
    try {
      done += fs.writeSync(fd, piece, done, piece.length - done);
    } catch (e) {
      // An inherited pipe or socket may be non-blocking: wait for the reader.
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
    }
  }
}

function writeAll(fd: number, data: OutputData): void {
  if (typeof data === "function") data((piece) => writePiece(fd, piece));
  else if (typeof data === "string") writePiece(fd, Buffer.from(data, "utf8"));
  else if (data instanceof Uint8Array) writePiece(fd, data);
  else for (const piece of data) writePiece(fd, piece);
}

/** An error of the system (a failed write or rename), as opposed to one of a producer of the data. */
function isSystemError(e: unknown): boolean {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).syscall === "string";
}

/** The descriptor a path such as /dev/stdout or /proc/self/fd/1 names, if it names one. */
function descriptorOf(file: string): number | undefined {
  let p = path.resolve(file);
  for (let hop = 0; hop < 8; hop++) {
    const m = /^\/(?:proc\/self|dev)\/fd\/(\d+)$/.exec(p);
    if (m) return Number(m[1]);
    try {
      if (!fs.lstatSync(p).isSymbolicLink()) return undefined;
      p = path.resolve(path.dirname(p), fs.readlinkSync(p));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

type Target =
  | { kind: "new"; path: string }
  | { kind: "regular"; path: string; mode: number }
  | { kind: "special"; path: string }
  | { kind: "descriptor"; fd: number };

/** What `file` names, following links: a device or pipe is written in place, a file replaced. */
function targetOf(file: string): Target {
  // /dev/stdout, /proc/self/fd/N: the descriptor itself, at its offset (`>> log` appends).
  const fd = descriptorOf(file);
  if (fd !== undefined) return { kind: "descriptor", fd };
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw new FileError(file, ioMessage(e));
    let link = false;
    try {
      link = fs.lstatSync(file).isSymbolicLink();
    } catch {
      // nothing there at all
    }
    if (link) throw new FileError(file, "is a symbolic link to a file that does not exist; not writing through it");
    return { kind: "new", path: path.resolve(file) };
  }
  if (st.isDirectory()) throw new FileError(file, "is a directory");
  if (st.isFile()) return { kind: "regular", path: realpathOf(file), mode: st.mode & 0o7777 };
  if (st.isCharacterDevice() || st.isFIFO()) return { kind: "special", path: file };
  throw new FileError(file, st.isBlockDevice() ? "is a block device; not writing a model onto it" : "is a socket, not a file");
}

function realpathOf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch (e) {
    throw new FileError(file, ioMessage(e));
  }
}

function writeSpecial(file: string, data: OutputData): void {
  let fd: number | undefined;
  try {
    // No O_CREAT: if it vanished meanwhile, fail rather than create a file through a link.
    fd = fs.openSync(file, fs.constants.O_WRONLY);
    const st = fs.fstatSync(fd);
    if (st.isFile()) throw new FileError(file, "changed into a regular file while it was opened");
    writeAll(fd, data);
  } catch (e) {
    if (e instanceof FileError || !isSystemError(e)) throw e;
    throw new FileError(file, ioMessage(e));
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Creates a new temp file beside `target` that no one else can have prepared. */
function createTemp(target: string): { fd: number; temp: string } {
  const dir = path.dirname(target);
  const base = path.basename(target).slice(0, 120);
  const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;
  for (let attempt = 0; ; attempt++) {
    const temp = path.join(dir, `.${base}.${process.pid}.${crypto.randomBytes(8).toString("hex")}${TEMP_SUFFIX}`);
    try {
      installSignalCleanup();
      const fd = fs.openSync(temp, flags, 0o666);
      liveTemps.add(temp);
      return { fd, temp };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 5) throw e;
    }
  }
}

function replaceRegular(file: string, target: Extract<Target, { kind: "new" | "regular" }>, data: OutputData): void {
  removeStaleTemps(path.dirname(target.path));
  let temp: string | undefined;
  let fd: number | undefined;
  try {
    ({ fd, temp } = createTemp(target.path));
    if (target.kind === "regular") fs.fchmodSync(fd, target.mode);
    writeAll(fd, data);
    fs.closeSync(fd);
    fd = undefined;
    // Rename only over a regular file: if something else took the name meanwhile, stop.
    const now = lstatOrUndefined(target.path);
    if (now && !now.isFile()) throw new FileError(file, "was replaced by something that is not a regular file while writing");
    fs.renameSync(temp, target.path);
    liveTemps.delete(temp);
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd);
    if (temp !== undefined) {
      try {
        fs.unlinkSync(temp);
      } catch {
        // not created, or already removed
      }
      liveTemps.delete(temp);
    }
    if (e instanceof FileError || !isSystemError(e)) throw e;
    throw new FileError(file, ioMessage(e));
  }
}

function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes `data` to `file`: a regular or new file is replaced as a whole (temp file + rename,
 * keeping the old file's permissions and any link pointing at it); a character device, FIFO
 * or pipe is written directly. Errors are FileErrors about `file`.
 */
export function writeOutput(file: string, data: OutputData): void {
  const target = targetOf(file);
  if (target.kind === "special") writeSpecial(file, data);
  else if (target.kind === "descriptor") {
    try {
      writeAll(target.fd, data);
    } catch (e) {
      if (!isSystemError(e)) throw e;
      throw new FileError(file, ioMessage(e));
    }
  } else replaceRegular(file, target, data);
}
