// No import cycle between folders of the product code. A folder here is an area: grammar/src,
// proto, server/src, client-vscode/src and each folder right below core/src (print, raise, interp
// with its sub-folders, ...); a file directly in core/src (the entry, text.ts, walk.ts) is an area
// of its own. Files inside one area may import each other in circles (a graph attribute holds a
// graph); areas must form layers.
// Biome's noImportCycles (npm run lint) checks files; this checks areas, which it cannot.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO } from "../helpers/paths.js";

const ROOTS = ["grammar/src", "proto/src", "proto/gen", "core/src", "cli/src", "server/src", "client-vscode/src"];

function areaOf(file: string): string {
  const rel = path.relative(REPO, file).split(path.sep).join("/");
  if (rel.startsWith("proto/")) return "proto";
  const m = /^core\/src\/([^/]+)(\/)?/.exec(rel);
  if (m) return m[2] ? `core/src/${m[1]}` : rel;
  for (const root of ROOTS) if (rel.startsWith(`${root}/`)) return root;
  return rel;
}

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ts$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Relative imports of a file, type-only ones included (they couple areas just the same). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g)) {
    out.push(path.resolve(path.dirname(file), m[1]!.replace(/\.js$/, ".ts")));
  }
  return out;
}

/** Strongly connected components of more than one area (Tarjan). */
function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

function areaGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const root of ROOTS) {
    for (const file of sourceFiles(path.join(REPO, root))) {
      const from = areaOf(file);
      const edges = graph.get(from) ?? new Set<string>();
      graph.set(from, edges);
      for (const target of importsOf(file)) {
        const to = areaOf(target);
        if (to !== from) edges.add(to);
      }
    }
  }
  return graph;
}

describe("folders of the product code", () => {
  it("import each other in layers, without cycles", () => {
    const found = cycles(areaGraph()).map((c) => c.join(" <-> "));
    assert.deepEqual(found, [], `folders that import each other: ${found.join("; ")}`);
  });

  it("find a cycle when there is one (the check itself)", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    assert.deepEqual(cycles(graph), [["a", "b", "c"]]);
  });
});
