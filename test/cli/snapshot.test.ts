// The commands' start-up snapshots (bin/onnxtxt.js's shell lines, cli/src/snapshot-request.ts,
// cli/src/snapshot-builder.ts): bin/onnxtxt.js run as a program makes one in the background
// after a first run, then starts from it with the same output as without it; a snapshot of
// another build, or one Node refuses, is never used, and one that fails its trial run is never
// put in place; stdin and signals reach the command through the launcher.
import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SNAPSHOT_COMMANDS, SNAPSHOT_FLAGS, snapshotTag } from "../../cli/src/snapshot-request.js";
import { CLI, LIGHT, REPO } from "../helpers/paths.js";

const SQUEEZENET = path.join(LIGHT, "light_squeezenet.onnx");
const RESNET = path.join(LIGHT, "light_resnet50.onnx");

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly fromSnapshot: boolean;
}

/** Runs `bin` as a program (its shell lines choose how Node starts) with the cache in `cache`. */
function runProgram(bin: string, cache: string, args: readonly string[], cwd = os.tmpdir()): Run {
  const r = spawnSync(bin, args, {
    cwd,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: { ...process.env, ONNXTXT_COMPILE_CACHE: cache, ONNXTXT_TRACE_START: "1" },
  });
  const trace = /^onnxtxt: started from the snapshot .*\n/m;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.replace(trace, ""), fromSnapshot: trace.test(r.stderr) };
}

/** Runs `node bin` (no shell lines, no snapshot). */
function runNode(bin: string, args: readonly string[], cwd = os.tmpdir()): Run {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", maxBuffer: 1 << 28, env: { ...process.env, ONNXTXT_COMPILE_CACHE: "off" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, fromSnapshot: false };
}

/** The processes whose arguments include `arg`, from /proc. */
function processesWith(arg: string): number[] {
  const found: number[] = [];
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(arg)) found.push(Number(pid));
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** Snapshot builds still running (their shell is named onnxtxt-snapshot). */
function buildsRunning(): boolean {
  return processesWith("onnxtxt-snapshot").length > 0;
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs `args` until a run starts from the snapshot (the first run asks for it); that run. */
function untilFromSnapshot(bin: string, cache: string, args: readonly string[], cwd?: string): Run {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = runProgram(bin, cache, args, cwd);
    if (r.fromSnapshot || Date.now() > deadline) return r;
    sleep(300);
  }
}

/** The snapshot files below `cache`. */
function snapshots(cache: string): string[] {
  const out: string[] = [];
  const visit = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (p.endsWith(".blob")) out.push(p);
    }
  };
  visit(path.join(cache, "snapshots"));
  return out;
}

/** Makes at `file` a print snapshot with V8 flags of its own, private and stamped with Node's time (as the launcher makes them). */
function snapshotWithOtherFlags(file: string): void {
  const built = spawnSync(
    process.execPath,
    ["--snapshot-blob", file, "--build-snapshot", "--max-semi-space-size=8", path.join(REPO, "dist/cli/src/snapshot-builder.cjs")],
    {
      encoding: "utf8",
      env: { ...process.env, ONNXTXT_SNAPSHOT_BUNDLE: path.join(REPO, "dist/cli/src/main.print.snapshot.cjs"), ONNXTXT_SNAPSHOT_COMMAND: "print" },
    },
  );
  assert.equal(built.status, 0, built.stderr);
  fs.chmodSync(file, 0o600);
  const nodeTime = fs.statSync(process.execPath).mtime;
  fs.utimesSync(file, nodeTime, nodeTime);
}

/** A copy of the package's files the CLI runs from, so that a test may change them. */
function copyPackage(to: string): string {
  for (const file of [
    "package.json",
    "bin/onnxtxt.js",
    "dist/cli/src/bundle-loader.js",
    "dist/core/src/node/code-cache.js",
    "dist/cli/src/snapshot-request.js",
  ]) {
    fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    fs.copyFileSync(path.join(REPO, file), path.join(to, file));
  }
  for (const name of fs.readdirSync(path.join(REPO, "dist/cli/src")).filter((n) => n.endsWith(".cjs")))
    fs.copyFileSync(path.join(REPO, "dist/cli/src", name), path.join(to, "dist/cli/src", name));
  fs.chmodSync(path.join(to, "bin/onnxtxt.js"), 0o755);
  return path.join(to, "bin/onnxtxt.js");
}

describe("the commands' start-up snapshots", function () {
  this.timeout(240_000);
  let tmp: string;

  before(function () {
    if (process.platform === "win32") this.skip();
    const bundle = path.join(REPO, "dist/cli/src/main.bundle.cjs");
    assert.ok(
      fs.statSync(bundle).mtimeMs >= fs.statSync(path.join(REPO, "dist/.tsbuildinfo")).mtimeMs,
      "the CLI bundle is older than the tsc build: run `npm run build`",
    );
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-snapshot-"));
  });
  after(() => {
    while (buildsRunning()) sleep(200);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("are listed alike, with the same V8 flags, by bin/onnxtxt.js's shell lines and cli/src/snapshot-request.ts", () => {
    const bin = fs.readFileSync(CLI, "utf8");
    const shell = /case \$1 in ([a-z|-]+)\) _f="([^"]+)" _t=(\w+) && \{ \[ "\$1" != print \] \|\| _f="([^"]+)" _t=(\w+); \}/.exec(bin);
    assert.ok(shell, "no command list, flags and tags in bin/onnxtxt.js");
    assert.deepEqual(shell[1]!.split("|").sort(), [...SNAPSHOT_COMMANDS].sort());
    for (const command of SNAPSHOT_COMMANDS) {
      const [flags, tag]: (string | undefined)[] = command === "print" ? [shell[4], shell[5]] : [shell[2], shell[3]];
      assert.equal(SNAPSHOT_FLAGS[command], flags, command);
      assert.equal(snapshotTag(SNAPSHOT_FLAGS[command]), tag, `${command}: the tag in the snapshot's name is not its flags'`);
    }
    assert.match(bin, /ONNXTXT_SNAPSHOT_BLOB=\$_d\/snapshots\$_n\$_s\.\$1\.\$_t\.blob /, "the snapshot's name has no tag");
    assert.notEqual(snapshotTag(SNAPSHOT_FLAGS.convert), snapshotTag(SNAPSHOT_FLAGS.print));
  });

  it("are made after a first run, private to the user, and give every command the output it has without them", () => {
    const cache = path.join(tmp, "cache");
    const work = fs.mkdtempSync(path.join(tmp, "work-"));
    const text = path.join(work, "resnet.onnxtxt");
    const printed = runNode(CLI, ["print", RESNET, "-o", text]);
    assert.equal(printed.code, 0, printed.stderr);
    fs.writeFileSync(path.join(work, "broken.onnxtxt"), fs.readFileSync(text, "utf8").replace(/\)\n/, "\n"));
    // Each with its exit code without the snapshot.
    const cases: [string[], number][] = [
      [["convert", text, "out.onnx"], 0],
      [["convert", "broken.onnxtxt", "broken.onnx"], 1],
      [["check", RESNET, "--format", "sarif"], 0],
      [["check", text], 0],
      [["print", SQUEEZENET], 0],
      [["format", "--check", text], 0],
    ];
    for (const [args, code] of cases) {
      const plain = runNode(CLI, args, work);
      assert.equal(plain.code, code, plain.stderr);
      const converted = args[0] === "convert" ? fs.readFileSync(path.join(work, "out.onnx")) : undefined;
      const started = untilFromSnapshot(CLI, cache, args, work);
      assert.ok(started.fromSnapshot, `${args.join(" ")}: never started from a snapshot: ${started.stderr}`);
      assert.deepEqual({ ...started, fromSnapshot: false }, plain, args.join(" "));
      if (converted) assert.ok(fs.readFileSync(path.join(work, "out.onnx")).equals(converted), "convert wrote other bytes from the snapshot");
    }
    const blobs = snapshots(cache);
    assert.deepEqual(blobs.map((b) => /\.([a-z-]+)\.[0-9a-f]{8}\.blob$/.exec(b)?.[1]).sort(), ["check", "convert", "format", "print"]);
    const nodeTime = Math.trunc(fs.statSync(process.execPath).mtimeMs / 1000);
    for (const blob of blobs) {
      assert.equal(fs.statSync(blob).mode & 0o077, 0, `${blob} is open to others`);
      assert.equal(fs.statSync(path.dirname(blob)).mode & 0o077, 0, `${path.dirname(blob)} is open to others`);
      assert.equal(Math.trunc(fs.statSync(blob).mtimeMs / 1000), nodeTime, "not stamped with Node's time");
    }
  });

  it("take stdin, and pass a signal sent to the launcher on to the command", async () => {
    const cache = path.join(tmp, "stdin");
    const work = fs.mkdtempSync(path.join(tmp, "stdin-work-"));
    const text = path.join(work, "squeezenet.onnxtxt");
    assert.equal(runNode(CLI, ["print", SQUEEZENET, "-o", text]).code, 0);
    const input = fs.readFileSync(text);
    const fromStdin = (): Run => {
      const r = spawnSync(CLI, ["convert", "-", "out.onnx"], {
        cwd: work,
        input,
        encoding: "utf8",
        env: { ...process.env, ONNXTXT_COMPILE_CACHE: cache, ONNXTXT_TRACE_START: "1" },
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr, fromSnapshot: r.stderr.includes("started from the snapshot") };
    };
    assert.ok(untilFromSnapshot(CLI, cache, ["convert", text, "out.onnx"], work).fromSnapshot);
    const expected = fs.readFileSync(path.join(work, "out.onnx"));
    fs.rmSync(path.join(work, "out.onnx"));
    const r = fromStdin();
    assert.ok(r.fromSnapshot && r.code === 0, r.stderr);
    assert.ok(fs.readFileSync(path.join(work, "out.onnx")).equals(expected), "stdin did not reach the command");
    // A command waiting on stdin (a FIFO this test holds open, so it never ends on its own),
    // and SIGTERM sent to the launcher's process only.
    const fifo = path.join(work, "stdin.fifo");
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
    const stdin = fs.openSync(fifo, fs.constants.O_RDWR);
    const out = path.join(work, "waiting.onnx");
    const child = spawn(CLI, ["convert", "-", out], { cwd: work, stdio: [stdin, "ignore", "ignore"], env: { ...process.env, ONNXTXT_COMPILE_CACHE: cache } });
    const command = (): number[] => processesWith(out).filter((pid) => pid !== child.pid);
    try {
      for (let i = 0; i < 200 && command().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(command().length > 0, "the command did not start");
      const ended = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGTERM");
      await ended;
      for (let i = 0; i < 100 && command().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(command(), [], "the command outlived the launcher");
    } finally {
      for (const pid of command()) process.kill(pid, "SIGKILL");
      fs.closeSync(stdin);
    }
    assert.ok(!fs.existsSync(out), "an output was written");
  });

  it("that Node refuses (made by another Node, or with other V8 flags) are removed, and the command runs without", () => {
    const cache = path.join(tmp, "refused");
    const args = ["print", SQUEEZENET];
    const expected = runNode(CLI, args);
    assert.ok(untilFromSnapshot(CLI, cache, args).fromSnapshot);
    const [blob] = snapshots(cache) as [string];
    snapshotWithOtherFlags(blob);
    const refused = runProgram(CLI, cache, args);
    // Node says why on stderr, once; the command's own output follows as without the snapshot.
    assert.match(refused.stderr, /^Failed to load the startup snapshot because .*\n.*\n/);
    assert.deepEqual({ ...refused, stderr: refused.stderr.replace(/^(.*\n){2}/, "") }, expected);
    assert.ok(untilFromSnapshot(CLI, cache, args).fromSnapshot, "no new snapshot was made");
  });

  it("that a version with other V8 flags left are never tried, and are removed when the new one is made", () => {
    const cache = path.join(tmp, "upgraded");
    const args = ["print", SQUEEZENET];
    const expected = runNode(CLI, args);
    assert.ok(untilFromSnapshot(CLI, cache, args).fromSnapshot);
    const [blob] = snapshots(cache) as [string];
    // Made with other flags (Node would refuse it and say so): the name before tags, and another tag.
    const tagged = /\.[0-9a-f]{8}\.blob$/;
    const left = [blob.replace(tagged, ".blob"), blob.replace(tagged, ".0badf1a9.blob")];
    const format = blob.replace(/\.print\.[0-9a-f]{8}\.blob$/, ".format.0badf1a9.blob");
    fs.rmSync(blob);
    for (const file of [...left, format]) snapshotWithOtherFlags(file);
    const first = runProgram(CLI, cache, args);
    assert.deepEqual(first, expected, "a snapshot of another version was tried");
    assert.ok(untilFromSnapshot(CLI, cache, args).fromSnapshot, "no new snapshot was made");
    assert.deepEqual(snapshots(cache).sort(), [blob, format].sort(), "the other version's print snapshots were kept, or another command's removed");
  });

  it("are built once: a run the launcher started just before the snapshot was put in place does not build it again", () => {
    const cache = path.join(tmp, "once");
    const args = ["print", SQUEEZENET];
    assert.ok(untilFromSnapshot(CLI, cache, args).fromSnapshot);
    while (buildsRunning()) sleep(100);
    const [blob] = snapshots(cache) as [string];
    const before = fs.statSync(blob);
    // As the launcher starts a command it found no snapshot for: the name set, the Node on PATH without it.
    const late = spawnSync("node", [CLI, ...args], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
      env: { ...process.env, ONNXTXT_COMPILE_CACHE: cache, ONNXTXT_SNAPSHOT_BLOB: blob },
    });
    assert.equal(late.status, 0, late.stderr);
    const building = fs.existsSync(`${blob}.lock`);
    while (buildsRunning()) sleep(100);
    assert.ok(!building, "a second build was started");
    assert.equal(fs.statSync(blob).ino, before.ino, "the snapshot was made again");
  });

  it("are not used with NODE_OPTIONS (Node refuses a snapshot made with other V8 flags)", () => {
    const cache = path.join(tmp, "options");
    const args = ["print", SQUEEZENET];
    const expected = runNode(CLI, args);
    assert.ok(untilFromSnapshot(CLI, cache, args).fromSnapshot);
    const r = spawnSync(CLI, args, {
      encoding: "utf8",
      maxBuffer: 1 << 28,
      env: { ...process.env, ONNXTXT_COMPILE_CACHE: cache, ONNXTXT_TRACE_START: "1", NODE_OPTIONS: "--max-old-space-size=3000" },
    });
    assert.deepEqual({ code: r.status, stdout: r.stdout, stderr: r.stderr }, { code: expected.code, stdout: expected.stdout, stderr: expected.stderr });
  });

  it("are neither made nor used when Node runs the file itself, or with the cache off", () => {
    const cache = path.join(tmp, "plain");
    const r = spawnSync(process.execPath, [CLI, "print", SQUEEZENET], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
      env: { ...process.env, ONNXTXT_COMPILE_CACHE: cache },
    });
    assert.equal(r.status, 0, r.stderr);
    const off = runProgram(CLI, "off", ["print", SQUEEZENET]);
    assert.equal(off.code, 0, off.stderr);
    assert.equal(off.fromSnapshot, false);
    while (buildsRunning()) sleep(200);
    assert.deepEqual(snapshots(cache), []);
  });

  it("are not used once the bundle changes: the command runs without, and a new snapshot is made", () => {
    const bin = copyPackage(path.join(tmp, "changed"));
    const cache = path.join(tmp, "changed-cache");
    const args = ["print", SQUEEZENET];
    const expected = runNode(CLI, args);
    assert.ok(untilFromSnapshot(bin, cache, args).fromSnapshot);
    const [blob] = snapshots(cache);
    const bundle = path.join(path.dirname(bin), "../dist/cli/src/main.print.snapshot.cjs");
    const later = new Date(fs.statSync(bundle).mtimeMs + 5000);
    fs.utimesSync(bundle, later, later);
    const changed = runProgram(bin, cache, args);
    assert.equal(changed.fromSnapshot, false);
    assert.deepEqual(changed, expected);
    const again = untilFromSnapshot(bin, cache, args);
    assert.ok(again.fromSnapshot, "no new snapshot was made");
    assert.deepEqual({ ...again, fromSnapshot: false }, expected);
    assert.deepEqual(snapshots(cache), [blob]);
  });

  it("are not put in place when the trial run fails, and the command keeps working", () => {
    const bin = copyPackage(path.join(tmp, "broken"));
    const cache = path.join(tmp, "broken-cache");
    // A snapshot that builds, but whose main function fails.
    fs.writeFileSync(
      path.join(path.dirname(bin), "../dist/cli/src/snapshot-builder.cjs"),
      'require("node:v8").startupSnapshot.setDeserializeMainFunction(() => { process.exitCode = 3; });\n',
    );
    const args = ["print", SQUEEZENET];
    const expected = runNode(CLI, args);
    const first = runProgram(bin, cache, args);
    assert.deepEqual(first, expected);
    while (buildsRunning()) sleep(200);
    assert.deepEqual(snapshots(cache), []);
    const lock = fs
      .readdirSync(path.join(cache, "snapshots"), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".lock"));
    assert.equal(lock.length, 1, "a failed build leaves its lock (it is tried again later)");
    assert.deepEqual(runProgram(bin, cache, args), expected);
  });
});
