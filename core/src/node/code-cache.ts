// Runs a CommonJS bundle (scripts/bundle-cli.ts makes them) with a V8 code cache: compiling a
// bundle's code is a third of a small command's time and most of the language server's start,
// and a cache made after a run holds every function that run compiled. Node 22 has such a
// cache built in (module.enableCompileCache); this one works from Node 20 on, the same
// everywhere. One cache file per bundle and name (each run compiles other functions), in a
// directory only this user can write; V8 rejects a cache made by another Node, other flags or
// another bundle, and then the run compiles as usual and writes a new one. ONNXTXT_COMPILE_CACHE
// names the directory, or turns the cache off with "off".
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import * as vm from "node:vm";

/** A directory for the cache that no other user can write, or undefined (no cache then). */
export function cacheDir(): string | undefined {
  const chosen = process.env.ONNXTXT_COMPILE_CACHE;
  if (chosen === "off") return undefined;
  const uid = process.getuid?.();
  const dir = chosen || path.join(os.tmpdir(), `onnxtxt-compile-cache-${uid ?? os.userInfo().username}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    // Another user's directory, or one others may write into, could hold code made to run here.
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (process.platform !== "win32" && (st.mode & 0o022) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** The cache file of `name` for this bundle (its size and time name its build). */
function cacheFile(dir: string, bundle: string, name: string): string {
  const st = fs.statSync(bundle);
  const safe = /^[a-z-]+$/.test(name) ? name : "other";
  // V8 rejects a cache made with other flags: `onnxtxt` (started with bin/onnxtxt.js's flags)
  // and `node bin/onnxtxt.js` each keep their own rather than rewriting one in turn.
  const flags = process.execArgv.join("").replace(/[^a-z0-9=]+/gi, "");
  return path.join(dir, `${process.version}-${process.arch}-${flags}${flags && "-"}${st.size}-${Math.trunc(st.mtimeMs)}-${safe}.cache`);
}

function readCache(file: string | undefined): Buffer | undefined {
  try {
    return file === undefined ? undefined : fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the cache through an exclusive temp file and a rename; a cache that cannot be written is no error. */
function writeCache(file: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, data, { flag: "wx", mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * Whether `bundle` is to be run: it is newer than the last tsc build (`buildInfo`), or there is
 * no build record (an installed package has none: it is not packed) and the bundle is there.
 */
export function bundleIsFresh(bundle: string, buildInfo: string): boolean {
  try {
    return fs.existsSync(buildInfo) ? fs.statSync(bundle).mtimeMs >= fs.statSync(buildInfo).mtimeMs : fs.existsSync(bundle);
  } catch {
    return false;
  }
}

export interface CachedBundle<T> {
  readonly exports: T;
  /** Writes the cache from what has been compiled so far, unless the one it ran with was taken. */
  saveCache(): void;
}

/** Evaluates `bundle` (with its cache for `name`, if there is one that V8 takes) and gives its exports. */
export function runCached<T>(bundle: string, name: string, dir = cacheDir()): CachedBundle<T> {
  const file = dir === undefined ? undefined : cacheFile(dir, bundle, name);
  const cachedData = readCache(file);
  // The function wrapper Node gives a CommonJS module (on the first line: positions stay right).
  const source = `(function (exports, require, module, __filename, __dirname) { ${fs.readFileSync(bundle, "utf8")}\n})`;
  const script = new vm.Script(source, { filename: bundle, ...(cachedData && { cachedData }) });
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
  return {
    exports: module.exports,
    saveCache: () => {
      if (file !== undefined && (cachedData === undefined || script.cachedDataRejected)) writeCache(file, script.createCachedData());
    },
  };
}

/**
 * Runs a long-lived program's bundle (a language server) with its cache for `name`, and writes
 * the cache when the process exits, if it ran without one V8 took: made then, it holds what the
 * whole session compiled, not only the start.
 */
export function runCachedSession(bundle: string, name: string): void {
  const session = runCached(bundle, name);
  process.once("exit", () => session.saveCache());
}
