// Fuzz seeds: the repository's text corpus, the official printer's texts and the backend test
// models. `limit` takes an evenly spread subset so short runs still see varied constructs.
import * as fs from "node:fs";
import * as path from "node:path";
import { nodeTestDirs, PRINTED, REPO, requireDir } from "../../helpers/paths.js";

function spread<T>(items: readonly T[], limit: number | undefined): T[] {
  if (limit === undefined || items.length <= limit) return [...items];
  const step = items.length / limit;
  return Array.from({ length: limit }, (_, i) => items[Math.floor(i * step)]!);
}

export function textCorpus(limit?: number): string[] {
  const own = path.join(REPO, "test/corpus");
  const files: string[] = [];
  const visit = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.name.endsWith(".onnxtxt")) files.push(p);
    }
  };
  visit(own);
  const printed = fs
    .readdirSync(requireDir(PRINTED, "test/data/onnx/printed.tar.xz"))
    .filter((f) => f.endsWith(".onnxtxt"))
    .sort();
  const chosen = [...files.sort(), ...spread(printed, limit === undefined ? undefined : Math.max(0, limit - files.length)).map((f) => path.join(PRINTED, f))];
  return chosen.map((f) => fs.readFileSync(f, "utf8"));
}

export function binaryCorpus(limit?: number): Uint8Array[] {
  return spread(nodeTestDirs(), limit).map((d) => new Uint8Array(fs.readFileSync(path.join(d, "model.onnx"))));
}
