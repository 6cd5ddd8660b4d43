// Asks for the CLI's start-up snapshot after a run that started without one. bin/onnxtxt.js's
// shell lines name the snapshot for this Node and this bin file (ONNXTXT_SNAPSHOT_BLOB) and use
// it when it is there, private to the user, and stamped with this Node's time. A detached shell
// builds it in the background (cli/src/snapshot-builder.ts is what it holds), tries it once, and
// only then stamps and renames it into place: a half-written or broken snapshot would crash
// Node before any of our code runs. One build at a time (a lock file); a failed build leaves
// its lock, and is tried again ten minutes later.
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

const RETRY_MS = 10 * 60_000;

/** The commands with a start-up snapshot each (the ones run most; bin/onnxtxt.js lists them too). */
export const SNAPSHOT_COMMANDS = ["convert", "check", "print", "format"] as const;
export type SnapshotCommand = (typeof SNAPSHOT_COMMANDS)[number];

/**
 * The V8 flags each snapshot is made and started with (bin/onnxtxt.js passes the same, also
 * when it starts a command without its snapshot; Node refuses a snapshot with others). The
 * young generation is sized to what each command keeps:
 *  - `convert`, `check` and `format` build a tree and a model that live to the end, so nearly
 *    everything a scavenge meets survives and is copied. A small young generation (2 MB, Node's
 *    default grows to 16) promotes it after less copying: a 50k-node text converts in 0.36 s
 *    instead of 0.49 (0.39 with 4 MB), checks in 0.51 instead of 0.59 and formats in 0.36
 *    instead of 0.43; a 2M-float text and ResNet-50 measured the same.
 *    Their old generation starts at 128 MB: from Node's small first limit, the model's growth
 *    started incremental marking halfway through a 50k-node parse, which made every scavenge
 *    after it slower and ended in a full collection (convert 0.26 -> 0.24 s, check 0.35 ->
 *    0.32, format 0.25 -> 0.23). Only the limit moves: memory is still taken as it is used.
 *  - `print` keeps the whole decoded model while it prints: with 64 MB a 50k-node model (19 MB)
 *    is read and printed without a single scavenge copying it, 0.16 -> 0.13 s; small inputs
 *    start 4 ms slower. Node 20 needs 48 MB for that, Node 22 (more allocated on the way) 64:
 *    with 48 it scavenges once and takes 0.18 s instead of 0.15.
 */
export const SNAPSHOT_FLAGS: Readonly<Record<SnapshotCommand, string>> = {
  convert: "--max-semi-space-size=2 --initial-old-space-size=128",
  check: "--max-semi-space-size=2 --initial-old-space-size=128",
  print: "--min-semi-space-size=64 --max-semi-space-size=64",
  format: "--max-semi-space-size=2 --initial-old-space-size=128",
};

/**
 * A short name for a set of V8 flags, part of the snapshot's file name (bin/onnxtxt.js writes
 * each command's out, and a test holds the two alike): a version whose flags differ looks for
 * another file, so Node never tries a snapshot made with the flags of the version before
 * (it would refuse it, and say so on stderr). FNV-1a, 32 bits, in hex.
 */
export function snapshotTag(flags: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) h = Math.imul(h ^ flags.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/** Removes the snapshots of `command` other versions left beside `blob` (other flags, or none in the name). */
function removeOtherVersions(blob: string, command: SnapshotCommand): void {
  const dir = path.dirname(blob);
  const own = path.basename(blob);
  const prefix = own.slice(0, own.length - `${command}.${snapshotTag(SNAPSHOT_FLAGS[command])}.blob`.length);
  const other = new RegExp(`^${command}\\.(?:[0-9a-f]{8}\\.)?blob$`);
  try {
    for (const name of fs.readdirSync(dir))
      if (name !== own && name.startsWith(prefix) && other.test(name.slice(prefix.length))) fs.rmSync(path.join(dir, name), { force: true });
  } catch {
    // nothing to remove
  }
}

/** $1 node, $2 builder, $3 temp file, $4 snapshot, $5 lock, $6 bin/onnxtxt.js, $7 the command, $8 its V8 flags. */
const BUILD = `"$1" --snapshot-blob "$3" --build-snapshot $8 "$2" &&
chmod 600 "$3" &&
"$1" --snapshot-blob "$3" $8 "$6" "$7" --help >/dev/null &&
touch -r "$1" "$3" && mv -f "$3" "$4" && rm -f "$5"
rm -f "$3"`;

function isSnapshotCommand(command: string): command is SnapshotCommand {
  return (SNAPSHOT_COMMANDS as readonly string[]).includes(command);
}

/** Takes the build lock, or says another build holds it. */
function lock(file: string): boolean {
  try {
    if (Date.now() - fs.statSync(file).mtimeMs > RETRY_MS) fs.rmSync(file, { force: true });
  } catch {
    // no lock yet
  }
  try {
    fs.writeFileSync(file, String(process.pid), { flag: "wx", mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `blob` is a snapshot the launcher would start from (stamped with this Node's time). A
 * run the launcher started just before a build put it in place asks again; the lock is only
 * let go after the rename, so checking under the lock never builds it twice.
 */
function inPlace(blob: string): boolean {
  try {
    return fs.statSync(blob).mtimeMs === fs.statSync(process.execPath).mtimeMs;
  } catch {
    return false;
  }
}

/** Starts building the snapshot of `command` bin/onnxtxt.js asked for, if it asked and `cacheRoot` holds it. */
export function requestSnapshot(bundle: string, cacheRoot: string | undefined, command: string): void {
  const blob = process.env.ONNXTXT_SNAPSHOT_BLOB;
  const bin = process.argv[1];
  if (!blob || !bin || cacheRoot === undefined || process.platform === "win32") return;
  if (!isSnapshotCommand(command) || !blob.endsWith(`.${command}.${snapshotTag(SNAPSHOT_FLAGS[command])}.blob`)) return;
  // Only inside the directory the code cache has checked (the user's own, closed to others).
  const inside = path.relative(cacheRoot, blob);
  if (inside.startsWith("..") || path.isAbsolute(inside)) return;
  const builder = path.join(path.dirname(bundle), "snapshot-builder.cjs");
  const commandBundle = path.join(path.dirname(bundle), `main.${command}.snapshot.cjs`);
  if (!fs.existsSync(builder) || !fs.existsSync(commandBundle)) return;
  try {
    fs.mkdirSync(path.dirname(blob), { recursive: true, mode: 0o700 });
  } catch {
    return;
  }
  const lockFile = `${blob}.lock`;
  if (!lock(lockFile)) return;
  if (inPlace(blob)) {
    fs.rmSync(lockFile, { force: true });
    return;
  }
  removeOtherVersions(blob, command);
  const args = [process.execPath, builder, `${blob}.${process.pid}.tmp`, blob, lockFile, bin, command, SNAPSHOT_FLAGS[command]];
  // With the V8 flags of bin/onnxtxt.js's shell lines only: Node refuses a snapshot made with others.
  const { NODE_OPTIONS: _, ...rest } = process.env;
  const env = { ...rest, ONNXTXT_SNAPSHOT_BUNDLE: commandBundle, ONNXTXT_SNAPSHOT_COMMAND: command, ONNXTXT_SNAPSHOT_BLOB: "" };
  // Loaded here, not at the top: every run the launcher starts without a snapshot imports this file.
  const { spawn } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
  spawn("/bin/sh", ["-c", BUILD, "onnxtxt-snapshot", ...args], { detached: true, stdio: "ignore", env }).unref();
}
