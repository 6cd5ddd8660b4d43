// The harness of the incremental-analysis tests: seeded random edits, documents that mix the
// syntax's features, and the comparison of an incremental analysis with a full one.
import * as assert from "node:assert/strict";
import { toBinary } from "@bufbuild/protobuf";
import { ModelProtoSchema } from "../../proto/src/index.js";
import type { Analysis } from "../../core/src/ide/analysis.js";
import { documentOutline } from "../../core/src/ide/outline.js";
import { semanticTokens } from "../../core/src/ide/semantic-tokens.js";
import type { TextChange } from "../../core/src/ide/shift-diagnostics.js";
import type { Span } from "../../grammar/src/span.js";

/** xorshift32 in [0, 1): the same edits on every run. */
export function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** A graph with initializers, declared types, attributes, folded constants, comments, a function and some mistakes. */
export function document(nodes: number, rnd: () => number): string {
  const lines = [
    `<ir_version: 10, opset_import: ["" : 21, "local" : 1]>`,
    `g (float[N, 4] x, int64[2] shape) => (float[N, 4] y)`,
    `<float[4] w = {1, 2, 3, 4}, float[N, 4] v1, int64[1] axes = {0}>`,
    `{`,
  ];
  let prev = "x";
  for (let i = 0; i < nodes; i++) {
    const out = `v${i}`;
    const pick = Math.floor(rnd() * 10);
    if (i % 7 === 3) lines.push(`  # step ${i}`);
    if (pick === 0) lines.push(`  ${out} = Relu (${prev})`);
    else if (pick === 1) lines.push(`  ${out} = Add (${prev}, w)`);
    else if (pick === 2) lines.push(`  ${out} = Mul (${prev}, ${prev})  # square`);
    else if (pick === 3) lines.push(`  ${out} = LeakyRelu <alpha: float = 0.1> (${prev})`);
    else if (pick === 4) lines.push(`  ${out} = local.Twice (${prev})`);
    else if (pick === 5) lines.push(`  ${out} = Cast <to = 1> (${prev})`);
    else if (pick === 6) lines.push(`  ${out} = Softmax <axis = -1> (${prev})`);
    else if (pick === 7) lines.push(`  ${out} = Add (${prev}, v${Math.max(0, i - 3)})`);
    else if (pick === 8) lines.push(`  [n${i}] ${out} = Identity (${prev})`);
    else lines.push(`  c${i} = Constant <value = int64[2] {-1, 4}> ()`, `  ${out} = Reshape (${prev}, c${i})`);
    prev = out;
  }
  lines.push(`  y = Identity (${prev})`, `}`, ``, `<domain: "local", opset_import: ["" : 21]>`, `Twice (a) => (b) {`, `  b = Add (a, a)`, `}`, ``);
  return lines.join("\n");
}

const ALPHABET = 'vwx0123456789_ ,()<>=.:a#[]"';

/** A random one-character edit strictly inside a node statement of the main graph. */
export function randomEdit(a: Analysis, rnd: () => number): TextChange {
  const nodes = a.ast!.graph!.body!.nodes;
  const node = nodes[Math.floor(rnd() * nodes.length)]!;
  const at = node.span.start + 1 + Math.floor(rnd() * (node.span.end - node.span.start - 2));
  const kind = Math.floor(rnd() * 3);
  return kind === 0 ? { start: at, end: at + 1, newLength: 0 } : { start: at, end: at + (kind === 1 ? 1 : 0), newLength: 1 };
}

export function apply(text: string, c: TextChange, rnd: () => number): string {
  const ch = c.newLength ? ALPHABET[Math.floor(rnd() * ALPHABET.length)]! : "";
  return text.slice(0, c.start) + ch + text.slice(c.end);
}

export function finish(steps: Generator<Analysis | undefined, Analysis, void>): Analysis {
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

/** Asserts `inc` (incremental) is `full` (a fresh analysis); with `features`, also what the editor shows of it. */
export function assertSame(inc: Analysis, full: Analysis, what: string, features = true): void {
  assert.deepEqual(inc.diagnostics, full.diagnostics, `${what}: diagnostics`);
  assert.equal(inc.syntaxCount, full.syntaxCount);
  assert.equal(inc.complete, full.complete, `${what}: complete`);
  assert.equal(!inc.model, !full.model, `${what}: a model or none`);
  if (inc.model && full.model) assert.deepEqual(toBinary(ModelProtoSchema, inc.model), toBinary(ModelProtoSchema, full.model), `${what}: model`);
  assert.deepEqual(inc.ast, full.ast, `${what}: syntax tree`);
  assert.deepEqual(inc.comments, full.comments, `${what}: comments`);
  assert.equal(inc.lines.lineCount, full.lines.lineCount, `${what}: lines`);
  for (let o = 0; o <= inc.text.length; o += 7) assert.deepEqual(inc.lines.position(o), full.lines.position(o), `${what}: position of ${o}`);
  assert.deepEqual(symbolsOf(inc), symbolsOf(full), `${what}: symbol index`);
  if (features) {
    assert.deepEqual(documentOutline(inc), documentOutline(full), `${what}: outline`);
    assert.deepEqual(semanticTokens(inc), semanticTokens(full), `${what}: semantic tokens`);
    // Hover's types: declared, inferred, or (in a text with syntax errors) declared only.
    const types = (a: Analysis) => a.symbols.scopes.map((sc) => [...sc.values.values()].map((v) => `${v.name}: ${a.typeOf(v)}`).sort());
    assert.deepEqual(types(inc), types(full), `${what}: types`);
  }
}

/** The symbol index as plain data: every occurrence in text order with its symbol, and each scope's names. */
export function symbolsOf(a: Analysis): unknown {
  const where = (s: Span): string => `${s.start}-${s.end}`;
  // Each symbol by its first occurrence in text order, with all its occurrences (listed once
  // per symbol: a weight every node reads has tens of thousands in a big graph).
  const seen = new Map<object, string>();
  const symbols: unknown[] = [];
  const occurrences = a.symbols.occurrencesIn({ start: 0, end: a.text.length }).map((o) => {
    let id = seen.get(o.symbol);
    if (id === undefined) {
      id = `#${seen.size} ${o.symbol.kind} ${o.symbol.name}`;
      seen.set(o.symbol, id);
      const p = o.symbol.producer;
      symbols.push({
        id,
        producer: p && (p.kind === "node" ? `node ${where(p.node.span)} #${p.index}` : `${p.kind} ${where(p.decl.span)}`),
        all: o.symbol.occurrences.map((x) => `${where(x.span)} ${x.role}`).sort(),
      });
    }
    return `${where(o.span)} ${o.role} ${o.quotable} ${id}`;
  });
  const scopes = a.symbols.scopes.map((s) => [where(s.owner.span), [...s.values.keys()].sort()]);
  return { occurrences, symbols, scopes };
}
