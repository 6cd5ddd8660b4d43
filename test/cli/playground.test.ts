// `onnxtxt playground` serves the built playground on 127.0.0.1: the address on stdout, the
// page and its script served, nothing outside the folder, and Ctrl-C stops it cleanly.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { buildPlayground, PLAYGROUND_DIR } from "../../scripts/build-playground.js";
import { CLI } from "../helpers/paths.js";

describe("onnxtxt playground", function () {
  this.timeout(120_000);

  before(async () => {
    if (!fs.existsSync(path.join(PLAYGROUND_DIR, "index.html"))) await buildPlayground();
  });

  it("serves dist/playground on 127.0.0.1 until interrupted", async () => {
    const child = spawn(process.execPath, [CLI, "playground", "--no-open"], { stdio: ["ignore", "pipe", "pipe"] });
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /^(http:\/\/127\.0\.0\.1:\d+\/)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code} before printing its address: ${out}`)));
    });
    try {
      const page = await fetch(url);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.equal(html, fs.readFileSync(path.join(PLAYGROUND_DIR, "index.html"), "utf8"));
      assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
      const script = await fetch(new URL("playground.js", url));
      assert.equal(script.status, 200);
      assert.match(script.headers.get("content-type") ?? "", /^text\/javascript/);
      assert.equal((await fetch(new URL("../../package.json", url))).status, 404, "nothing above the folder");
      assert.equal((await fetch(new URL("%2e%2e/%2e%2e/package.json", url))).status, 404, "nor by an encoded path");
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGINT");
      assert.equal(await exited, 0);
    }
  });

  it("refuses a bad port with a usage error", async () => {
    const child = spawn(process.execPath, [CLI, "playground", "--port", "http"], { stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    assert.equal(code, 2);
    assert.match(err, /--port http: expected a port number/);
  });
});
