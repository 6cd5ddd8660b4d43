// `onnxtxt graph --format json` on a text input: every op, graph input and output (bodies of
// If and Loop included) carries its span and its line and column, and they point at its
// statement or declaration; a binary input has none. And `--compare-to OLD`, the diff view.
import { strict as assert } from "node:assert";
import * as path from "node:path";
import * as fs from "node:fs";
import * as os from "node:os";
import { runCli } from "../helpers/cli.js";
import { LIGHT, REPO } from "../helpers/paths.js";

interface JsonNode {
  kind: string;
  label: string;
  span?: { start: number; end: number };
  position?: { line: number; column: number; endLine: number; endColumn: number };
  groups: { nodes: JsonNode[] }[];
}

function all(nodes: readonly JsonNode[]): JsonNode[] {
  return nodes.flatMap((n) => [n, ...n.groups.flatMap((g) => all(g.nodes))]);
}

describe("onnxtxt graph --format json: positions", () => {
  it("gives every op, input and output of a text model its line and column", () => {
    const file = path.join(REPO, "examples/control-flow.onnxtxt");
    const text = fs.readFileSync(file, "utf8");
    const lines = text.split("\n");
    const r = runCli(["graph", "--format", "json", "--depth", "2", file]);
    assert.equal(r.code, 0, r.stderr);
    const nodes = all(JSON.parse(r.stdout).graph.nodes as JsonNode[]);
    const ops = nodes.filter((n) => n.kind === "op");
    assert.ok(ops.length > 3 && nodes.some((n) => n.kind === "input") && nodes.some((n) => n.kind === "output"));
    for (const n of nodes) {
      if (n.kind === "collapsed") continue;
      assert.ok(n.span && n.position, `${n.kind} ${n.label} has no place`);
      // the position is the span's, and the text there names the element
      const at = lines.slice(0, n.position.line - 1).reduce((s, l) => s + l.length + 1, 0) + n.position.column - 1;
      assert.equal(at, n.span.start);
      assert.ok(text.slice(n.span.start, n.span.end).includes(n.label), `${n.label}: ${text.slice(n.span.start, n.span.end)}`);
    }
  });

  it("a binary model has no spans (its text was never read)", () => {
    const r = runCli(["graph", "--format", "json", path.join(LIGHT, "light_squeezenet.onnx")]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(all(JSON.parse(r.stdout).graph.nodes as JsonNode[]).every((n) => n.span === undefined && n.position === undefined));
  });

  it("--compare-to OLD colours the changed box, dims the rest, lists what has no box", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-graph-diff-"));
    try {
      const mlp = path.join(REPO, "examples/mlp.onnxtxt");
      const changed = path.join(dir, "mlp2.onnxtxt");
      fs.writeFileSync(changed, fs.readFileSync(mlp, "utf8").replace("h = Relu (h1)", "h = Sigmoid (h1)").replace('"" : 21', '"" : 22'));
      const r = runCli(["graph", "--compare-to", mlp, changed]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /<svg [^>]*class="onnx-graph diff"/);
      assert.equal(r.stdout.match(/class="box [^"]*diff-changed"/g)?.length, 1);
      assert.match(r.stdout, /changed: node Relu: op Relu -&gt; Sigmoid/);
      assert.equal(r.stderr, `onnxtxt graph: not drawn: opset_import "" : 21 -> 22\n`);
      // without --compare-to, no diff styles at all
      assert.doesNotMatch(runCli(["graph", changed]).stdout, /diff/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--compare-to OLD draws a removed node as a box of its own in SVG, JSON and DOT", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-graph-diff-"));
    try {
      const mlp = path.join(REPO, "examples/mlp.onnxtxt");
      const cut = path.join(dir, "mlp2.onnxtxt");
      fs.writeFileSync(cut, fs.readFileSync(mlp, "utf8").replace("  h = Relu (h1)\n", "").replace("MatMul (h, W2)", "MatMul (h1, W2)"));
      const json = runCli(["graph", "--format", "json", "--compare-to", mlp, cut]);
      assert.equal(json.code, 0, json.stderr);
      assert.equal(json.stderr, "", "what is drawn is not listed");
      const graph = JSON.parse(json.stdout).graph as {
        nodes: { id: string; label: string; diff?: { kind: string; messages: string[] } }[];
        edges: { from: string; to: string; value: string; diff?: string }[];
      };
      const removed = graph.nodes.filter((n) => n.diff?.kind === "removed");
      assert.deepEqual(
        removed.map((n) => [n.id, n.label, n.diff!.messages]),
        [["main/removed:n2", "Relu", ["node removed: h = Relu (h1) (taken out before MatMul)"]]],
      );
      assert.deepEqual(
        graph.edges.filter((e) => e.diff === "removed").map((e) => [e.from, e.to, e.value]),
        [
          ["main/n1", "main/removed:n2", "h1"],
          ["main/removed:n2", "main/n2", "h"],
        ],
      );
      const svg = runCli(["graph", "--compare-to", mlp, cut]).stdout;
      assert.equal(svg.match(/class="box op diff-removed"/g)?.length, 1);
      assert.match(svg, /removed: node removed: h = Relu \(h1\)/);
      assert.equal(svg.match(/class="edge diff-removed"/g)?.length, 2);
      assert.match(
        runCli(["graph", "--format", "dot", "--compare-to", mlp, cut]).stdout,
        /"main\/removed:n2" \[shape=box, label="Relu", color=red, style=dashed/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
