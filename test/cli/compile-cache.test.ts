// The CLI's code cache (cli/src/bundle-loader.ts): a second run reuses the cache the first one
// wrote, a damaged or foreign cache is never trusted, and the output is the same in every case.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CLI, LIGHT, REPO } from "../helpers/paths.js";

const MODEL = path.join(LIGHT, "light_squeezenet.onnx");

function printWith(cacheDir: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, "print", MODEL], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: { ...process.env, ONNXTXT_COMPILE_CACHE: cacheDir },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const cacheFiles = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith("-print.cache")) : []);

describe("the CLI's code cache", function () {
  this.timeout(60_000);
  let tmp: string;
  let expected: string;

  before(() => {
    const bundle = path.join(REPO, "dist/cli/src/main.bundle.cjs");
    const built = path.join(REPO, "dist/.tsbuildinfo");
    assert.ok(fs.statSync(bundle).mtimeMs >= fs.statSync(built).mtimeMs, "the CLI bundle is older than the tsc build: run `npm run build`");
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-cache-"));
    const off = printWith("off");
    assert.equal(off.code, 0, off.stderr);
    expected = off.stdout;
    assert.match(expected, /Conv/);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("is written by a first run, private to the user, and used unchanged by the next", () => {
    const dir = path.join(tmp, "fresh");
    assert.equal(printWith(dir).stdout, expected);
    const [file] = cacheFiles(dir);
    assert.ok(file, "no cache written");
    if (process.platform !== "win32") {
      assert.equal(fs.statSync(dir).mode & 0o077, 0, "the cache directory is open to others");
      assert.equal(fs.statSync(path.join(dir, file)).mode & 0o077, 0, "the cache file is open to others");
    }
    const before = fs.readFileSync(path.join(dir, file));
    assert.equal(printWith(dir).stdout, expected);
    // V8 accepted it: a rejected cache would have been written again, from a run that compiled more.
    assert.ok(fs.readFileSync(path.join(dir, file)).equals(before), "the cache was rewritten: V8 rejected it");
  });

  it("is replaced when damaged, with the same output", () => {
    const dir = path.join(tmp, "damaged");
    printWith(dir);
    const [file] = cacheFiles(dir);
    assert.ok(file);
    const garbage = Buffer.alloc(4096, 0x5a);
    fs.writeFileSync(path.join(dir, file), garbage);
    const r = printWith(dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, expected);
    assert.ok(!fs.readFileSync(path.join(dir, file)).equals(garbage), "the damaged cache was kept");
  });

  it("is not made from a --help run (it would hold none of the command's work)", () => {
    const dir = path.join(tmp, "help");
    const r = spawnSync(process.execPath, [CLI, "print", "--help"], { encoding: "utf8", env: { ...process.env, ONNXTXT_COMPILE_CACHE: dir } });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(cacheFiles(dir), []);
    assert.equal(printWith(dir).stdout, expected);
    assert.equal(cacheFiles(dir).length, 1);
  });

  it("is not used from a directory others may write", function () {
    if (process.platform === "win32") this.skip();
    const dir = path.join(tmp, "shared");
    fs.mkdirSync(dir, { mode: 0o777 });
    fs.chmodSync(dir, 0o777);
    assert.equal(printWith(dir).stdout, expected);
    assert.deepEqual(cacheFiles(dir), []);
  });
});
