// The parse in steps (grammar/src/index.ts's parseModelSteps): the text is parsed with the
// main graph's body skipped to its balancing `}`, then the body is read in slices with pauses
// between them. Whatever the text, the result must be parseModel's, tree, comments and
// diagnostics alike; and on the texts it can slice (the scanner found nothing wrong, the body's
// statements end at that `}`) it must slice, not parse again. The pauses tell the ways apart:
// with one slice for the whole body, a sliced parse pauses twice (after the scan, before the
// slice) and one that had to parse again three times.
import * as assert from "node:assert/strict";
import { largeDocument } from "../../bench/lsp-document.js";
import { parseModel, parseModelSteps, tokenize } from "../../grammar/src/index.js";
import { TOKENS_PER_STEP } from "../../grammar/src/steps.js";
import { textCorpus } from "../robust/harness/corpus.js";
import { mutateText } from "../robust/harness/mutate-text.js";
import { Rng } from "../robust/harness/rng.js";
import { drive } from "../helpers/drive-steps.js";

/** The steps of `text`'s parse: how many pauses, and the result. */
function sliced(text: string, tokensPerStep?: number) {
  return drive(parseModelSteps(text, tokensPerStep));
}

const ONE_SLICE = Number.POSITIVE_INFINITY;

function assertSame(text: string, tokensPerStep: number): number {
  const { pauses, result } = sliced(text, tokensPerStep);
  assert.deepEqual(result, parseModel(text), `the parse in steps differs on ${JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}...` : text)}`);
  return pauses;
}

describe("grammar: the parse in steps", function () {
  this.timeout(120_000);
  const corpus = textCorpus(300);

  it("gives parseModel's result on the corpus and the official printer's texts, in slices of a few tokens", () => {
    let slicedTexts = 0;
    for (const text of corpus) {
      assertSame(text, 7);
      if (assertSame(text, ONE_SLICE) === 2) slicedTexts++;
    }
    // Every text with a main graph and nothing the scanner rejects is sliced.
    const sliceable = corpus.filter((t) => tokenize(t).diagnostics.length === 0 && parseModel(t).ast?.graph?.body).length;
    assert.equal(slicedTexts, sliceable);
    assert.ok(sliceable >= 250, `${sliceable} texts sliced`);
  });

  it("gives parseModel's result on broken texts, and slices those whose braces balance", () => {
    const rng = new Rng(36);
    let slicedTexts = 0;
    let broken = 0;
    const seeds = corpus.filter((t) => t.length < 20_000);
    for (let i = 0; i < 1500; i++) {
      const text = mutateText(rng.pick(seeds), rng, seeds);
      assertSame(text, 5);
      const pauses = assertSame(text, ONE_SLICE);
      const diagnostics = parseModel(text).diagnostics.length;
      if (diagnostics > 0) broken++;
      if (pauses === 2 && diagnostics > 0) slicedTexts++;
    }
    assert.ok(broken > 700, `${broken} broken texts`);
    // Most broken texts still have their braces in balance, so they are read in slices.
    assert.ok(slicedTexts > broken / 3, `${slicedTexts} of ${broken} broken texts sliced`);
  });

  it("reads a body whose statements end before the balancing brace again at once, with the diagnostics of a parse at once", () => {
    // The `{` of the broken tensor balances the first `}`: the statements end there, not at the last one.
    const text = "g (float x) => (float y) {\n  a = Constant <value: tensor = float {1\n  b = Relu (x)\n}> ()\n  y = Relu (b)\n}\n";
    assert.ok(parseModel(text).diagnostics.length > 0);
    assert.equal(assertSame(text, ONE_SLICE), 3);
    assertSame(text, 2);
  });

  it("pauses every TOKENS_PER_STEP tokens of a 20k-node body, with the tree of a parse at once", () => {
    const text = largeDocument(20_000);
    const { pauses, result } = sliced(text);
    // A pause every TOKENS_PER_STEP tokens (about 2,000 statements here), and after the scan.
    const least = Math.floor(tokenize(text).tokens.count / TOKENS_PER_STEP);
    assert.ok(least >= 9 && pauses >= least, `${pauses} pauses`);
    assert.deepEqual(result, parseModel(text));
    const broken = text.replace(/\(([^()\n]*)\)\n/g, (m, args: string, at: number) => (at % 97 === 0 ? `(${args}\n` : m));
    assert.notEqual(broken, text);
    const b = sliced(broken);
    assert.ok(b.pauses >= least, `${b.pauses} pauses`);
    assert.equal(sliced(broken, ONE_SLICE).pauses, 2, "read again at once");
    assert.ok(b.result.diagnostics.length > 10);
    assert.deepEqual(b.result, parseModel(broken));
  });
});
