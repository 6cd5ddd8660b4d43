// The scanner the tools run (grammar/src/scanner.ts) against the Chevrotain lexer built from the
// token table (grammar/src/reference-lexer.ts): the same tokens, payloads, comments and errors
// on the corpus, the official printer's texts, fuzzed variants of them and on every character.
import { strict as assert } from "node:assert";
import { referenceTokenize, type ReferenceLex } from "../../grammar/src/reference-lexer.js";
import { tokenize, Tok } from "../../grammar/src/scanner.js";
import { textCorpus } from "../robust/harness/corpus.js";
import { mutateText } from "../robust/harness/mutate-text.js";
import { Rng } from "../robust/harness/rng.js";

const KIND_NAMES = new Map<number, string>(Object.entries(Tok).map(([name, kind]) => [kind, name]));

/** The scanner's result in the reference lexer's terms. */
function scanned(text: string): ReferenceLex {
  const r = tokenize(text);
  const t = r.tokens;
  const tokens = [];
  for (let k = 0; k < t.count; k++) {
    const name = KIND_NAMES.get(t.kinds[k]!)!;
    const payload = name === "Number" ? t.isFloat[k] === 1 : name === "NumberList" ? t.lists.get(k) : undefined;
    tokens.push({ name, start: t.starts[k]!, end: t.ends[k]!, ...(payload !== undefined && { payload }) });
  }
  return {
    tokens,
    comments: r.comments.map((c) => ({ start: c.span.start, end: c.span.end })),
    errors: r.diagnostics.map((d) => ({ start: d.span!.start, end: d.span!.end })),
  };
}

function assertSame(text: string): void {
  const ours = scanned(text);
  const reference = referenceTokenize(text);
  assert.deepEqual(ours, reference, `the scanner and the reference lexer differ on ${JSON.stringify(text.length > 300 ? text.slice(0, 300) + "..." : text)}`);
}

describe("scanner against the Chevrotain reference lexer", () => {
  const corpus = textCorpus(300);

  it("reads the corpus and the official printer's texts alike", () => {
    for (const text of corpus) assertSame(text);
  });

  it("reads every ASCII and some other characters alike, alone and in context", () => {
    const chars = [...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)), "\u00a0", "\ufeff", "é", "\u2028", "😀"];
    for (const c of chars) {
      for (const text of [c, `x${c}y`, `-${c}`, `1${c}2`, `{1${c}2}`, `"a${c}"`, `#${c}\nz`, `${c}${c}inf`, `=${c}>`]) assertSame(text);
    }
  });

  it("reads number forms and packed lists alike", () => {
    for (const text of [
      "1 -1 1.5 -1.5 1. .5 1e5 1E-5 1e+5 1e 1e- 00 -0 -inf inf nan -nan infinity -Infinity INF nanx -infx",
      '{1, 2, 3} {1,2,} {} {1 2} {-inf, nan, 1e400} {1, "a"} {1, # c\n 2} {12345678901234567890, 0.1234567890123456789012345}',
      "{ -, 1} {1, -} {1.5e3, -2.5E-3, 7}",
      "9007199254740993 {9007199254740993}",
      "=> = > == =>>",
    ])
      assertSame(text);
  });

  it("reads fuzzed texts alike", () => {
    const rng = new Rng(20261122);
    for (let i = 0; i < 600; i++) assertSame(mutateText(rng.pick(corpus), rng, corpus));
  });
});
