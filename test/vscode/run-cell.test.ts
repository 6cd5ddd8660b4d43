// onnxtxt.run: arguments from a code lens or the palette, results and failures to the view.
import * as assert from "node:assert/strict";
import { runArgumentsOf, runCell, type RunHost } from "../../client-vscode/src/run-cell.js";
import type { RunCellArguments } from "../../core/src/ide/run-cell.js";
import type { RunFailure } from "../../client-vscode/src/run-protocol.js";
import type { RunViewModel } from "../../client-vscode/src/run-view.js";

class FakeRunHost implements RunHost {
  readonly sent: RunCellArguments[] = [];
  readonly shown: RunViewModel[] = [];
  readonly marks: [string, RunFailure | undefined][] = [];
  readonly errors: string[] = [];
  constructor(
    private readonly active: string | undefined,
    private readonly answer: () => Promise<unknown>,
    private readonly texts: Record<string, string> = {},
  ) {}
  documentText(uri: string): string | undefined {
    return this.texts[uri];
  }
  activeDocumentUri(): string | undefined {
    return this.active;
  }
  execute(args: RunCellArguments): Promise<unknown> {
    this.sent.push(args);
    return this.answer();
  }
  show(model: RunViewModel): void {
    this.shown.push(model);
  }
  markFailure(uri: string, failure: RunFailure | undefined): void {
    this.marks.push([uri, failure]);
  }
  error(message: string): void {
    this.errors.push(message);
  }
}

const ACTIVE = "file:///w/m.onnxtxt";

class ResponseErrorLike extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data: unknown,
  ) {
    super(message);
  }
}

describe("onnxtxt.run", () => {
  it("takes the code lens argument, or the active editor from the palette", () => {
    assert.deepEqual(runArgumentsOf([{ uri: "file:///a.onnxtxt", graph: "f", inputs: { x: "float[1] {1}" } }], undefined), {
      uri: "file:///a.onnxtxt",
      graph: "f",
      inputs: { x: "float[1] {1}" },
    });
    assert.deepEqual(runArgumentsOf([{ uri: "file:///a.onnxtxt", graph: 3 }], undefined), { uri: "file:///a.onnxtxt" });
    assert.deepEqual(runArgumentsOf(["file:///b.onnxtxt"], undefined), { uri: "file:///b.onnxtxt" });
    assert.deepEqual(runArgumentsOf([], "file:///c.onnxtxt"), { uri: "file:///c.onnxtxt" });
    assert.equal(runArgumentsOf([], undefined), undefined);
  });

  it("sends the request and shows the outputs", async () => {
    const host = new FakeRunHost(ACTIVE, async () => ({
      outputs: [{ name: "y", type: "float[2]", text: "float[2] {4, 6}" }],
      elapsedMs: 3,
      inputSources: { x: "default", n: 5 },
    }));
    const model = await runCell([{ uri: "file:///w/m.onnxtxt", graph: "main" }], host, 64);
    assert.deepEqual(host.sent, [{ uri: "file:///w/m.onnxtxt", graph: "main" }]);
    assert.deepEqual(
      host.shown.map((m) => m.running === true),
      [true, false],
      "a running state, then the result",
    );
    assert.deepEqual(model, {
      title: "main (m.onnxtxt)",
      outputs: [{ name: "y", type: "float[2]", text: "float[2] {4, 6}" }],
      elapsedMs: 3,
      inputSources: { x: "default" },
      limits: [64],
    });
    assert.deepEqual(host.marks, [["file:///w/m.onnxtxt", undefined]], "an old failure mark is cleared");
  });

  it("titles a run of an ONNX text in a host file by the host file", async () => {
    const host = new FakeRunHost(ACTIVE, async () => ({ outputs: [], elapsedMs: 1, inputSources: {} }));
    const model = await runCell([{ uri: "file:///w/test_relu.py#onnxtxt-region-2", graph: "agraph" }], host, 64);
    assert.equal(model?.title, "agraph (test_relu.py)");
  });

  it("marks the node that failed and shows the message", async () => {
    const range = { start: { line: 3, character: 2 }, end: { line: 3, character: 20 } };
    const host = new FakeRunHost(ACTIVE, () => Promise.reject(new ResponseErrorLike("Relu: input x is missing", -32603, { range, node: "r1" })));
    const model = await runCell([], host, 10);
    assert.deepEqual(model?.failure, { message: "Relu: input x is missing", range, node: "r1" });
    assert.deepEqual(host.marks.at(-1), ["file:///w/m.onnxtxt", { message: "Relu: input x is missing", range, node: "r1" }]);
    assert.equal(host.shown.at(-1)?.failure?.message, "Relu: input x is missing");
  });

  it("finds the failed node in the document when the server gives no range", async () => {
    const text = '<ir_version: 10, opset_import: ["" : 21]>\nmain (float[2] x) => (float[2] y) {\n  h = Relu (x)\n  [bad] y = MatMul (h, h)\n}\n';
    const host = new FakeRunHost(ACTIVE, () => Promise.reject(new Error("node bad (MatMul): shapes [2] and [2] do not agree")), { [ACTIVE]: text });
    const model = await runCell([], host, 10);
    assert.deepEqual(model?.failure?.range, { start: { line: 3, character: 2 }, end: { line: 3, character: 25 } });
    assert.equal(model?.failure?.node, "bad (MatMul)");
    assert.equal(host.marks.at(-1)?.[1]?.node, "bad (MatMul)");
  });

  it("reports a failure without a location, and a malformed answer, in the view", async () => {
    const plain = new FakeRunHost(ACTIVE, () => Promise.reject(new Error("the server crashed")));
    assert.deepEqual((await runCell([], plain, 10))?.failure, { message: "the server crashed" });
    assert.equal(plain.marks.length, 1, "only the clearing mark");
    const odd = new FakeRunHost(ACTIVE, async () => ({ outputs: [{ name: 1 }] }));
    assert.equal((await runCell([], odd, 10))?.failure?.message, "the server's result has a malformed output");
  });

  it("needs a document", async () => {
    const host = new FakeRunHost(undefined, async () => ({}));
    assert.equal(await runCell([], host, 10), undefined);
    assert.equal(host.sent.length, 0);
    assert.deepEqual(host.errors, ["Run Graph needs an open .onnxtxt file."]);
  });
});
