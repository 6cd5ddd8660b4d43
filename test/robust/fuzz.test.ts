// A short, seeded fuzz run over every stage (the long one is `npm run fuzz`). Any failure
// prints its target, problem and iteration; replay with scripts/fuzz.mjs --seed.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCli } from "../helpers/cli.js";
import { runAttacks } from "./harness/attacks.js";
import { binaryCorpus, textCorpus } from "./harness/corpus.js";
import { runFuzz, type FuzzReport } from "./harness/fuzz.js";
import { hostCorpus, runHostFuzz } from "./harness/host-fuzz.js";
import { mutateText } from "./harness/mutate-text.js";
import { Rng } from "./harness/rng.js";
import { TEXT_TARGETS } from "./harness/targets.js";

function summary(r: FuzzReport): string {
  return r.failures
    .slice(0, 5)
    .map(
      (f) =>
        `#${f.iteration} ${f.target}: ${f.problem}\n  input: ${JSON.stringify(typeof f.input === "string" ? f.input.slice(0, 300) : `${f.input.length} bytes`)}`,
    )
    .join("\n");
}

describe("fuzz (short seeded run)", () => {
  const texts = textCorpus(120);
  const binaries = binaryCorpus(120);

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: no exception, every diagnostic located, no input slower than 10 s`, () => {
      const r = runFuzz({ seed, count: 200, texts, binaries, slowMs: 10_000 });
      assert.equal(r.inputs, 200);
      assert.equal(r.failures.length, 0, summary(r));
    });
  }

  it("host files (#30): mutated Python, C++, Markdown and JavaScript fixtures find, check and format without a throw, inside the file, idempotently", () => {
    const hosts = hostCorpus();
    assert.deepEqual([...new Set(hosts.map((h) => h.language))].sort(), ["cpp", "javascript", "markdown", "python"]);
    const r = runHostFuzz({ seed: 4, count: 300, hosts, slowMs: 10_000 });
    assert.equal(r.inputs, 300);
    assert.deepEqual(
      r.failures.slice(0, 5).map((f) => `#${f.iteration} ${f.input.language}: ${f.problem}\n  input: ${JSON.stringify(f.input.text.slice(0, 300))}`),
      [],
    );
  });

  it("file-system and protocol attacks (#22): a short seeded run finds nothing", async function () {
    this.timeout(180_000);
    const r = await runAttacks({ seed: 5, count: 16, timeMs: 150_000 });
    assert.equal(r.attacks, 16);
    assert.deepEqual(
      r.failures.map((f) => `${f.attack} #${f.iteration}: ${f.problem}\n  ${f.scene}`),
      [],
    );
  });

  it("is deterministic: the same seed gives the same inputs", () => {
    const a = new Rng(42);
    const b = new Rng(42);
    for (let i = 0; i < 50; i++) assert.equal(mutateText(texts[i % texts.length]!, a, texts), mutateText(texts[i % texts.length]!, b, texts));
  });

  it("catches a target that throws or leaves a diagnostic unlocated", () => {
    const throwing = {
      name: "throws",
      run: (): string[] => {
        throw new TypeError("boom");
      },
    };
    const r = runFuzz({ seed: 5, count: 3, texts, binaries: [], textTargets: [throwing, ...TEXT_TARGETS] });
    assert.equal(r.failures.length, 3);
    assert.match(r.failures[0]!.problem, /threw TypeError: boom/);
  });

  it("onnxtxt check on 40 mutated texts: exit 0 or 1, no stack trace, every line FILE:LINE:COL", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-mutated-"));
    try {
      const rng = new Rng(77);
      const files = Array.from({ length: 40 }, (_, i) => {
        const file = path.join(dir, `m${i}.onnxtxt`);
        fs.writeFileSync(file, mutateText(rng.pick(texts), rng, texts));
        return file;
      });
      const r = runCli(["check", ...files]);
      assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.stderr.slice(0, 500)}`);
      assert.doesNotMatch(r.stdout + r.stderr, /^\s+at |^\w*Error: /m);
      const lines = r.stderr.split("\n").filter((l) => l !== "");
      assert.ok(lines.length > 0);
      for (const line of lines) assert.match(line, /^.+\/m\d+\.onnxtxt:\d+:\d+: (error|warning|info|hint): .+ \[[\w.-]+\]$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("onnxtxt diff on 20 texts against their mutations: exit 0, 1 or 2, no stack trace, errors located", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-mutated-diff-"));
    try {
      const rng = new Rng(78);
      for (let i = 0; i < 20; i++) {
        const original = rng.pick(texts);
        const a = path.join(dir, `a${i}.onnxtxt`);
        const b = path.join(dir, `b${i}.onnxtxt`);
        fs.writeFileSync(a, original);
        fs.writeFileSync(b, mutateText(original, rng, texts));
        const r = runCli(["diff", a, b]);
        assert.ok(r.code === 0 || r.code === 1 || r.code === 2, `exit ${r.code}: ${r.stderr.slice(0, 500)}`);
        assert.doesNotMatch(r.stdout + r.stderr, /^\s+at |^\w*Error: /m);
        for (const line of r.stderr.split("\n").filter((l) => l !== ""))
          assert.match(line, /^(.+\/[ab]\d+\.onnxtxt:\d+:\d+: (error|warning|info|hint|note): .+|onnxtxt: .+)$/);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
