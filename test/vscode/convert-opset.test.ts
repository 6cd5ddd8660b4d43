// *ONNX: Convert Model to Opset...*: the quick pick lists every other opset, newest first; the
// server's edit is applied, and a conversion with refused nodes is not, with a message saying why.
import * as assert from "node:assert/strict";
import { convertModelOpset, opsetItems, type ConvertOpsetHost, type OpsetPickItem } from "../../client-vscode/src/convert-opset.js";
import type { ConvertOpsetResult } from "../../server/src/opset-request.js";
import { FakeHost } from "./fake-host.js";

const RANGE = { start: { line: 2, character: 2 }, end: { line: 2, character: 26 } };

type Conversion = NonNullable<ConvertOpsetResult["conversion"]>;

function host(answer: (target: number) => Conversion | undefined, pick: number | undefined) {
  const applied: unknown[] = [];
  const picked: OpsetPickItem[][] = [];
  const h: ConvertOpsetHost & FakeHost & { applied: unknown[]; picked: OpsetPickItem[][] } = Object.assign(new FakeHost(), {
    applied,
    picked,
    convertOpset: async (_uri: string, target?: number): Promise<ConvertOpsetResult> => {
      const conversion = target === undefined ? undefined : answer(target);
      return { from: 16, latest: 21, ...(conversion && { conversion }) };
    },
    pick: async (items: readonly OpsetPickItem[]) => {
      picked.push([...items]);
      return items.find((i) => i.target === pick);
    },
    apply: async (_uri: string, edits: unknown) => {
      applied.push(edits);
      return true;
    },
  });
  return h;
}

describe("convert model to opset", () => {
  it("lists the other opsets newest first, marking the newest and the neighbours", () => {
    const items = opsetItems(16, 21);
    assert.deepEqual(
      items.slice(0, 6).map((i) => `${i.label}${i.description ? ` (${i.description})` : ""}`),
      ["Opset 21 (newest)", "Opset 20", "Opset 19", "Opset 18", "Opset 17 (next)", "Opset 15 (previous)"],
    );
    assert.equal(items.length, 20);
  });

  it("applies the server's edit for the picked opset", async () => {
    const edits = [{ range: RANGE, newText: "x" }];
    const h = host((target) => ({ target, edits, refused: [], canonical: false }), 20);
    await convertModelOpset("file:///m.onnxtxt", h);
    assert.deepEqual(h.applied, [edits]);
    assert.deepEqual(h.errors, []);
  });

  it("applies nothing when nodes cannot convert, and says which and why", async () => {
    const h = host(
      (target) => ({
        target,
        edits: [],
        refused: [{ range: RANGE, message: "(GridSample) at graph 'g': GridSample first appears at opset 16" }],
        canonical: false,
      }),
      12,
    );
    await convertModelOpset("file:///m.onnxtxt", h);
    assert.deepEqual(h.applied, []);
    assert.deepEqual(h.errors, ["Not converted to opset 12: 1 node cannot convert: line 3: (GridSample) at graph 'g': GridSample first appears at opset 16"]);
  });

  it("does nothing when the pick is dismissed", async () => {
    const h = host(() => undefined, undefined);
    await convertModelOpset("file:///m.onnxtxt", h);
    assert.deepEqual(h.applied, []);
    assert.equal(h.picked.length, 1);
  });
});
