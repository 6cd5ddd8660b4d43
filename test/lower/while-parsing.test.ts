// Lowering while parsing (core/src/text.ts's modelOnlyFromText, what reading a model file uses)
// against the two separate passes of modelFromText: the same model, diagnostics and comments on
// the corpus, the official printer's texts and fuzzed variants of them (which take the fallback).
import { strict as assert } from "node:assert";
import { encodeModel } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";
import { modelFromText, modelOnlyFromText } from "../../core/src/text.js";
import type * as A from "../../grammar/src/ast.js";
import { parseModel, parseModelStreaming } from "../../grammar/src/index.js";
import { textCorpus } from "../robust/harness/corpus.js";
import { mutateText } from "../robust/harness/mutate-text.js";
import { Rng } from "../robust/harness/rng.js";

function assertSameReading(text: string): void {
  const full = modelFromText(text, { sourceMap: false });
  const only = modelOnlyFromText(text);
  const what = JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text);
  assert.equal(only.ast, undefined, what);
  assert.deepEqual(only.diagnostics, full.diagnostics, what);
  assert.deepEqual(only.comments, full.comments, what);
  assert.equal(only.model === undefined, full.model === undefined, what);
  if (full.model) assert.deepEqual(encodeModel(only.model!), encodeModel(full.model), what);
}

type Handed = A.OpNode | { plain: [outputs: string[], opType: string, inputs: string[]] };

/** What the parser may hand over for a statement of the tree: its names when it is plain (unquoted names, nothing else), else itself. */
function expectedHandOver(n: A.OpNode): Handed {
  const names = (l: A.IdList | undefined): string[] | undefined =>
    l?.items.every((i) => i.kind === "Name" && !i.quoted) ? l.items.map((i) => (i as A.Name).value) : undefined;
  const outputs = names(n.outputs);
  const inputs = names(n.inputs);
  const op = n.op;
  const plain = !n.label && !n.attributes && op?.opType && op.domain.length === 0 && !op.overload && outputs?.length && inputs;
  return plain ? { plain: [outputs, op.opType!.value, inputs] } : n;
}

/** The tree with the main graph's node list emptied, as parseModelStreaming leaves it. */
function withoutGraphNodes(m: A.Model): A.Model {
  const body = m.graph?.body;
  return body ? { ...m, graph: { ...m.graph, body: { ...body, nodes: [] } } } : m;
}

describe("lowering while parsing", () => {
  const corpus = textCorpus(400);

  it("reads the corpus and the official printer's texts as modelFromText does", () => {
    let nested = 0;
    for (const text of corpus) {
      assertSameReading(text);
      if (/\b(If|Loop|Scan)\b/.test(text)) nested++;
    }
    assert.ok(nested > 0, "the corpus has subgraphs inside the statements handed over");
  });

  it("applies residual comments, as modelFromText does", () => {
    let read = 0;
    for (const text of corpus.slice(0, 60)) {
      const model = modelFromText(text).model;
      if (!model?.graph?.node.length) continue;
      for (const n of model.graph.node) n.docString = `doc of ${n.output[0]}`;
      const printed = printModel(model);
      assert.ok(printed.includes("#@node"), printed);
      assertSameReading(printed);
      assert.deepEqual(
        modelOnlyFromText(printed).model?.graph?.node.map((n) => n.docString),
        model.graph.node.map((n) => n.docString),
      );
      read++;
    }
    assert.ok(read > 20, `${read} texts with residual comments`);
  });

  it("reads broken and unusual variants of them as modelFromText does", () => {
    const rng = new Rng(36);
    for (let i = 0; i < 600; i++) assertSameReading(mutateText(corpus[rng.int(corpus.length)]!, rng, corpus));
  });

  it("hands the main graph's statements over in order and keeps the rest of the tree", () => {
    let plain = 0;
    let trees = 0;
    for (const text of corpus) {
      const tree = parseModel(text);
      const handed: Handed[] = [];
      const streaming = parseModelStreaming(text, {
        node: (n) => handed.push(n),
        plain: (outputs, opType, inputs) => handed.push({ plain: [outputs, opType, inputs] }),
      });
      const nodes = tree.ast?.graph?.body?.nodes ?? [];
      assert.equal(handed.length, nodes.length, text);
      // A plain statement may also come as its tree (the parser's test for plain is by tokens:
      // `g = Op (x,)` is read by the node rule).
      nodes.forEach((n, i) => assert.deepEqual(handed[i], "plain" in handed[i]! ? expectedHandOver(n) : n, text));
      assert.deepEqual(streaming.ast && withoutGraphNodes(streaming.ast), tree.ast && withoutGraphNodes(tree.ast));
      assert.deepEqual(streaming.diagnostics, tree.diagnostics);
      assert.deepEqual(streaming.comments, tree.comments);
      for (const h of handed)
        if ("plain" in h) plain++;
        else trees++;
    }
    assert.ok(plain > 1000 && trees > 1000, `${plain} plain statements and ${trees} trees handed over`);
    // The next parse keeps its nodes in the tree again.
    assert.ok((parseModel(corpus[0]!).ast?.graph?.body?.nodes.length ?? 0) > 0);
  });
});
