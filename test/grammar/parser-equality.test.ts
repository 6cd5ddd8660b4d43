// Before the hand-written parser goes: the Chevrotain parser (what grammar/src/index.ts runs)
// and the hand-written one give identical ASTs (spans included) and identical diagnostics on
// every text of test/corpus, the printed corpus, examples/ and mutated (fuzz) texts, through
// every entry point.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";

import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { Parser } from "../../grammar/src/hand-parser.js";
import { parseFunction, parseGraph, parseModel, parseNode, parseTensorConstant, parseTypeExpr, tokenize, type ParseResult } from "../../grammar/src/index.js";
import { OnnxTextParser } from "../../grammar/src/parser.js";
import { PRINTED, REPO } from "../helpers/paths.js";
import { mutateText } from "../robust/harness/mutate-text.js";
import { Rng } from "../robust/harness/rng.js";

/** index.ts's pipeline around the hand-written parser, as it was. */
function handRun<T>(text: string, what: string, fn: (p: Parser) => T | undefined): ParseResult<T> {
  const lexed = tokenize(text);
  const parser = new Parser(text, lexed.tokens);
  let ast: T | undefined;
  try {
    ast = fn(parser);
    parser.expectEnd(what);
  } catch (e) {
    parser.diagnostics.push({ severity: "error", code: "internal", message: `internal parser error: ${e instanceof Error ? e.message : String(e)}`, span: { start: 0, end: 0 } });
  }
  const parsed = lexed.diagnostics.length === 0 ? parser.diagnostics : parser.diagnostics.filter((p) => {
    const at = p.span?.start ?? 0;
    return !lexed.diagnostics.some((l) => {
      const from = l.span?.start ?? 0;
      return from <= at && !/[\n\r]/.test(text.slice(from, at));
    });
  });
  const diagnostics: Diagnostic[] = lexed.diagnostics.length === 0 ? parsed : [...lexed.diagnostics, ...parsed].sort((x, y) => (x.span?.start ?? 0) - (y.span?.start ?? 0));
  return { ...(ast !== undefined && { ast }), comments: lexed.comments, diagnostics };
}

type Entry = [string, (t: string) => ParseResult<unknown>, (t: string) => ParseResult<unknown>];
const ENTRIES: Entry[] = [
  ["model", parseModel, (t) => handRun(t, "model", (p) => p.model())],
  ["graph", parseGraph, (t) => handRun(t, "graph", (p) => p.graph(true))],
  ["function", parseFunction, (t) => handRun(t, "function", (p) => p.functionDef())],
  ["node", parseNode, (t) => handRun(t, "node", (p) => p.node())],
  ["type", parseTypeExpr, (t) => handRun(t, "type", (p) => p.typeExpr())],
  ["tensor", parseTensorConstant, (t) => handRun(t, "tensor", (p) => p.tensorConstant())],
];

function same(label: string, text: string, entries: readonly Entry[] = ENTRIES): void {
  for (const [name, chevrotain, hand] of entries) {
    const a = chevrotain(text);
    const b = hand(text);
    try {
      assert.deepStrictEqual(a, b);
    } catch (e) {
      const snippet = JSON.stringify(text.length > 400 ? text.slice(0, 400) + "..." : text);
      assert.fail(`${label} (${name}): the parsers differ on ${snippet}\n${JSON.stringify(a.diagnostics)}\n${JSON.stringify(b.diagnostics)}\n${(e as Error).message.slice(0, 1500)}`);
    }
  }
}

function filesBelow(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesBelow(p));
    else if (e.name.endsWith(".onnxtxt")) out.push(p);
  }
  return out.sort();
}

describe("Chevrotain parser = hand-written parser", () => {
  const own = [...filesBelow(path.join(REPO, "test/corpus")), ...filesBelow(path.join(REPO, "examples"))];
  const printed = fs.readdirSync(PRINTED).filter((f) => f.endsWith(".onnxtxt")).sort().map((f) => path.join(PRINTED, f));

  it("passes Chevrotain's grammar validations", () => {
    assert.doesNotThrow(() => new OnnxTextParser(true));
  });

  it(`test/corpus and examples/ (${own.length} texts), every entry point`, () => {
    assert.ok(own.length > 10);
    for (const f of own) same(path.relative(REPO, f), fs.readFileSync(f, "utf8"));
  });

  it(`the printed corpus (${printed.length} texts)`, function () {
    this.timeout(120_000);
    assert.ok(printed.length > 1800);
    for (const f of printed) same(path.basename(f), fs.readFileSync(f, "utf8"), ENTRIES.slice(0, 1));
  });

  it("mutated texts (the fuzz corpus: 6000 inputs from 3 seeds), every entry point", function () {
    this.timeout(300_000);
    const corpus = [...own, ...printed.filter((_, i) => i % 25 === 0)].map((f) => fs.readFileSync(f, "utf8"));
    for (const seed of [1, 2, 3]) {
      const rng = new Rng(seed);
      for (let i = 0; i < 2000; i++) {
        const text = mutateText(corpus[rng.int(corpus.length)]!, rng, corpus);
        same(`seed ${seed} #${i}`, text, ENTRIES.slice(0, 1));
        // The other entry points on a piece: a line, or a slice around it.
        const lines = text.split("\n");
        const line = lines[rng.int(lines.length)]!;
        same(`seed ${seed} #${i} line`, line.trim());
        const at = rng.int(text.length + 1);
        same(`seed ${seed} #${i} slice`, text.slice(at, at + rng.int(300)));
      }
    }
  });

  it("hostile shapes: deep nesting, long lists, unterminated strings", () => {
    const texts = [
      `g (${"seq(".repeat(300)}float${")".repeat(300)} x) => (y) {}`,
      "g () => (y) {\n" + "y = If (c) <b = g () => (y) {\n".repeat(300) + "}>\n".repeat(300) + "}",
      `g () => (y) { y = C <v = ${"[".repeat(300)}1${"]".repeat(300)}> () }`,
      "g () => (y) { y = C <s = \"abc> () }\nf () => () {}",
      "<ir_version: 8, opset_import: [\"\" : 18], doc_string: \"x\" >\ng (float[2] x) => (y) <float[2] w = {1, 2}, int64 s = [\"location\": \"a\"]> { y = Add (x, w) }",
    ];
    for (const t of texts) same("hostile", t);
  });
});


