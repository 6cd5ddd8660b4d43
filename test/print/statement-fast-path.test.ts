// The statement fast path (raise/statement-text.ts) prints a plain node straight from its proto.
// The oracle is the full path (raise to the AST, lay out the doc) that the fast path replaces:
// whole models print byte for byte the same both ways, plain and with residuals, on the real
// networks, every node test, libonnx's models, the examples and nodes made to sit on each edge.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { decodeModel } from "../../core/src/io/index.js";
import { onlyLeading } from "../../core/src/print/comments.js";
import { printAst } from "../../core/src/print/printer.js";
import { printModel } from "../../core/src/print-model.js";
import { printNode } from "../../core/src/print-parts.js";
import { raiseModel } from "../../core/src/raise/raise-model.js";
import { statementText } from "../../core/src/raise/statement-text.js";
import { NODE_EXTRA } from "../../core/src/raise/field-tables.js";
import { modelFromText } from "../../core/src/text.js";
import {
  AttributeProto_AttributeType as AT,
  AttributeProtoSchema,
  FunctionProtoSchema,
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  StringStringEntryProtoSchema,
  ValueInfoProtoSchema,
  type AttributeProto,
  type ModelProto,
  type NodeProto,
} from "../../proto/src/index.js";
import { LIGHT, REPO, libonnxModelDirs, nodeTestDirs } from "../helpers/paths.js";

/** The text through the full path only: every statement raised to the AST and laid out. */
function slowPrint(model: ModelProto, plain: boolean, width?: number): string {
  const { ast, lazyBodies, leading, verify } = raiseModel(model, plain, { fastStatements: false });
  const text = printAst(ast, { ...(plain ? {} : { comments: onlyLeading(leading) }), lazyBodies, ...(width === undefined ? {} : { width }) });
  verify();
  return text;
}

function fastPrint(model: ModelProto, plain: boolean, width?: number): string {
  return printModel(model, { plain, ...(width === undefined ? {} : { width }) });
}

function assertSame(model: ModelProto, what: string, width?: number): void {
  for (const plain of [false, true]) assert.equal(fastPrint(model, plain, width), slowPrint(model, plain, width), `${what}${plain ? " (--plain)" : ""}`);
}

const attr = (a: MessageInitShape<typeof AttributeProtoSchema>): AttributeProto => create(AttributeProtoSchema, a);
const node = (n: MessageInitShape<typeof NodeProtoSchema>): NodeProto => create(NodeProtoSchema, n);

/** Nodes on either side of each condition of the fast path. */
function edgeNodes(): NodeProto[] {
  const longName = "v".repeat(45);
  return [
    node({ opType: "Relu", input: ["x"], output: ["a"] }),
    node({ opType: "Relu", input: ["x"], output: ["a2"], domain: "" }),
    node({ opType: "Relu", input: ["x"], output: ["b"], name: "relu_1" }),
    node({ opType: "Relu", input: ["x"], output: ["b2"], name: "has space" }),
    node({ opType: "Relu", input: ["x"], output: ["b3"], name: "" }),
    node({ opType: "Custom", domain: "com.example", input: ["x"], output: ["c"] }),
    node({ opType: "Custom", domain: "com..bad", input: ["x"], output: ["c2"] }),
    node({ opType: "Custom", domain: "local", overload: "v2", input: ["x"], output: ["c3"] }),
    node({ opType: "Custom", domain: "local", overload: "not plain", input: ["x"], output: ["c4"] }),
    node({ opType: "not plain", input: ["x"], output: ["d"] }),
    node({ input: ["x"], output: ["d2"] }),
    node({ opType: "Split", input: ["x", ""], output: ["", "e", "float", "nan", "with space", 'q"uote'] }),
    node({ opType: "Relu", input: [], output: [] }),
    node({ opType: "Relu", input: ["x"], output: ["f"], docString: "doc" }),
    node({ opType: "Relu", input: ["x"], output: ["f2"], metadataProps: [create(StringStringEntryProtoSchema, { key: "k", value: "v" })] }),
    node({
      opType: "Op",
      input: ["x"],
      output: ["g"],
      attribute: [
        attr({ name: "i", type: AT.INT, i: -3n }),
        attr({ name: "f", type: AT.FLOAT, f: 0.1 }),
        attr({ name: "f1", type: AT.FLOAT, f: 1 }),
        attr({ name: "fz", type: AT.FLOAT, f: -0 }),
        attr({ name: "big", type: AT.FLOAT, f: 3.4e38 }),
        attr({ name: "s", type: AT.STRING, s: new TextEncoder().encode('a "b" \\ é') }),
      ],
    }),
    node({
      opType: "Op",
      input: ["x"],
      output: ["g2"],
      attribute: [
        attr({ name: "is", type: AT.INTS, ints: [1n, -2n, 9007199254740993n] }),
        attr({ name: "fs", type: AT.FLOATS, floats: [0.5, 2, -Infinity] }),
        attr({ name: "ss", type: AT.STRINGS, strings: [new Uint8Array([0x61]), new Uint8Array()] }),
      ],
    }),
    node({ opType: "Op", input: ["x"], output: ["h1"], attribute: [attr({ name: "n", type: AT.FLOAT, f: Number.NaN })] }),
    node({ opType: "Op", input: ["x"], output: ["h2"], attribute: [attr({ name: "n", type: AT.FLOATS, floats: [1, Number.NaN] })] }),
    node({ opType: "Op", input: ["x"], output: ["h3"], attribute: [attr({ name: "e", type: AT.INTS, ints: [] })] }),
    node({ opType: "Op", input: ["x"], output: ["h4"], attribute: [attr({ name: "u", i: 4n })] }),
    node({ opType: "Op", input: ["x"], output: ["h5"], attribute: [attr({ name: "w", type: AT.FLOAT, i: 4n })] }),
    node({ opType: "Op", input: ["x"], output: ["h6"], attribute: [attr({ name: "w", type: AT.INT, i: 4n, f: 1 })] }),
    node({ opType: "Op", input: ["x"], output: ["h7"], attribute: [attr({ name: "d", type: AT.INT, i: 4n, docString: "d" })] }),
    node({ opType: "Op", input: ["x"], output: ["h8"], attribute: [attr({ name: "r", type: AT.INT, refAttrName: "p" })] }),
    node({ opType: "Op", input: ["x"], output: ["h9"], attribute: [attr({ name: "bad name", type: AT.INT, i: 1n })] }),
    node({ opType: "Op", input: ["x"], output: ["h10"], attribute: [attr({ name: "s", type: AT.STRING, s: new Uint8Array([0xff]) })] }),
    node({ opType: "Op", input: ["x"], output: ["h11"], attribute: [attr({ name: "i", type: AT.INT })] }),
    // Lines at, just under and just over the width, and one that must break.
    ...[35, 36, 37].map((n) => node({ opType: "Concat", input: [longName.slice(0, n), longName], output: [`l${n}`] })),
    node({ opType: "Concat", input: Array.from({ length: 20 }, (_, i) => `${longName}${i}`), output: ["wide"] }),
  ];
}

/** The same nodes with the domain field set (to "" where it was unset). */
function withDomainSet(nodes: NodeProto[]): NodeProto[] {
  return nodes.map((n) => create(NodeProtoSchema, { ...n, domain: n.domain }));
}

function edgeModel(nodes: NodeProto[]): ModelProto {
  return create(ModelProtoSchema, {
    irVersion: 10n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: "", version: 21n }), create(OperatorSetIdProtoSchema, { domain: "local", version: 1n })],
    graph: create(GraphProtoSchema, {
      name: "edges",
      input: [create(ValueInfoProtoSchema, { name: "x" })],
      output: [create(ValueInfoProtoSchema, { name: "a" })],
      node: nodes,
    }),
    functions: [create(FunctionProtoSchema, { name: "Custom", domain: "local", input: ["x"], output: ["c"], node: nodes.slice(0, 8) })],
  });
}

describe("print: the statement fast path", function () {
  this.timeout(300_000);

  it("takes the plain nodes and leaves every other one to the full path", () => {
    const defaults = { nodeDomainUnset: true, tensorNameUnset: false, rawStorage: false, attrRawStorage: false, uniqueFirstOutput: () => false };
    const taken = edgeNodes()
      .filter((n) => statementText(n, defaults) !== undefined)
      .map((n) => n.output[0] ?? "(none)");
    // Written by hand from the conditions: a2 sets the domain to "" against the default unset.
    assert.deepEqual(taken, ["a", "b", "b2", "b3", "c", "c3", "", "(none)", "g", "g2", "l35", "l36", "l37", "wide"]);
  });

  it("reads the node fields the text cannot show as the full path lists them", () => {
    // statementText reads these three directly; a field added to NODE_EXTRA must be added there too.
    assert.deepEqual(
      NODE_EXTRA.fields.map((f) => f.name),
      ["doc_string", "metadata_props", "device_configurations"],
    );
  });

  it("writes a node as the full path prints it on its own (printNode)", () => {
    const defaults = { nodeDomainUnset: false, tensorNameUnset: false, rawStorage: false, attrRawStorage: false, uniqueFirstOutput: () => false };
    let compared = 0;
    for (const n of withDomainSet(edgeNodes())) {
      const text = statementText(n, defaults);
      if (text !== undefined && text.length <= 100) {
        assert.equal(text + "\n", printNode(n), n.output.join());
        compared++;
      }
    }
    // the 14 taken above, less `wide`, plus a2 (its "" domain is this default)
    assert.equal(compared, 14);
  });

  it("prints models made on the edges as the full path does, at several widths", () => {
    const model = edgeModel(edgeNodes());
    for (const width of [undefined, 40, 60, 200]) assertSame(model, `edges at width ${width}`, width);
    // the other domain default
    const set = edgeModel(withDomainSet(edgeNodes()));
    assertSame(set, "edges with the domain set");
  });

  it("prints the light networks, libonnx's models, every node test and the examples as the full path does", () => {
    const files = [
      ...fs
        .readdirSync(LIGHT)
        .filter((f) => f.endsWith(".onnx"))
        .map((f) => path.join(LIGHT, f)),
      ...libonnxModelDirs().map((d) => path.join(d, "model.onnx")),
      ...nodeTestDirs().map((d) => path.join(d, "model.onnx")),
    ];
    for (const file of files) assertSame(decodeModel(fs.readFileSync(file)), file);
    const examples = path.join(REPO, "examples");
    const texts = fs.readdirSync(examples).filter((f) => f.endsWith(".onnxtxt"));
    assert.ok(texts.length >= 4);
    for (const f of texts) {
      const r = modelFromText(fs.readFileSync(path.join(examples, f), "utf8"));
      assert.ok(r.model, f);
      assertSame(r.model, f);
    }
    assert.ok(files.length > 1000, `${files.length} models`);
  });
});
