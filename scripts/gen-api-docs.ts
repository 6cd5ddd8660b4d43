// docs/api.md: the library's API reference, made from the TSDoc of the declarations tsc emits
// for the package's entry points (`onnxtxt`, `onnxtxt/node`). TypeDoc does not run on this
// repository's TypeScript 7, so this reads the .d.ts files: each export of an entry, in its
// order, with the entry's comment on the export and the declaration with its own comment.
//   node dist/scripts/gen-api-docs.js [--check]
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeOrCheck } from "./generated-file.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const API_DOC = path.join(REPO, "docs/api.md");
const ENTRIES = [
  { name: "onnxtxt", file: path.join(REPO, "dist/core/src/index.d.ts") },
  { name: "onnxtxt/node", file: path.join(REPO, "dist/core/src/node/index.d.ts") },
];

/** A top-level statement of a .d.ts file and the doc comment right before it. */
interface Statement {
  readonly doc: string | undefined;
  readonly text: string;
}

/** Splits a .d.ts file into statements: `;` or a closing brace at depth 0 ends one. */
function statements(source: string): Statement[] {
  const out: Statement[] = [];
  let doc: string | undefined;
  let i = 0;
  while (i < source.length) {
    if (/\s/.test(source[i]!)) {
      i++;
      continue;
    }
    if (source.startsWith("/**", i)) {
      const end = source.indexOf("*/", i) + 2;
      doc = source.slice(i, end);
      i = end;
      continue;
    }
    if (source.startsWith("//", i)) {
      i = source.indexOf("\n", i) + 1 || source.length;
      continue;
    }
    const start = i;
    let depth = 0;
    let quote: string | undefined;
    for (; i < source.length; i++) {
      const c = source[i]!;
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = undefined;
        continue;
      }
      if (c === '"' || c === "'" || c === "`") quote = c;
      else if (source.startsWith("/*", i)) i = source.indexOf("*/", i) + 1;
      else if (c === "{" || c === "(" || c === "[") depth++;
      else if (c === "}" || c === ")" || c === "]") {
        depth--;
        if (
          depth === 0 &&
          c === "}" &&
          !/^\s*[;|&,]/.test(source.slice(i + 1, i + 3)) &&
          /^(export )?(declare )?(interface|class|enum|namespace) /.test(source.slice(start))
        ) {
          i++;
          break;
        }
      } else if (c === ";" && depth === 0) {
        i++;
        break;
      }
    }
    out.push({ doc, text: source.slice(start, i).trim() });
    doc = undefined;
  }
  return out;
}

/** The text of a doc comment without its markers. */
function docText(doc: string | undefined): string {
  if (!doc) return "";
  return doc
    .replace(/^\/\*\*\s?/, "")
    .replace(/\s*\*\/$/, "")
    .split("\n")
    .map((l) => l.replace(/^\s*\* ?/, ""))
    .join("\n")
    .replace(/\{@link ([^}]+)\}/g, "`$1`")
    .trim();
}

/** `./x.js` from `file` -> the .d.ts it names. */
function target(file: string, from: string): string {
  return path.resolve(path.dirname(file), from.replace(/\.js$/, ".d.ts"));
}

/** The names an `export { ... }` or `import { ... }` list gives: [exported, local]. */
function names(list: string): [string, string][] {
  return list
    .split(",")
    .map((n) => n.trim().replace(/^type\s+/, ""))
    .filter((n) => n !== "")
    .map((n) => {
      const [local, exported] = n.split(/\s+as\s+/);
      return [exported ?? local!, local!];
    });
}

const DECLARATION = /^export (?:declare )?(?:abstract )?(function|interface|type|class|const|let|enum|namespace) ([\w$]+)/;

interface Declaration {
  readonly doc: string;
  readonly texts: string[];
}

const cache = new Map<string, Statement[]>();
function statementsOf(file: string): Statement[] {
  let s = cache.get(file);
  if (!s) {
    s = fs.existsSync(file) ? statements(fs.readFileSync(file, "utf8")) : [];
    cache.set(file, s);
  }
  return s;
}

/** The declarations of `name` in `file`, following re-exports and imports. */
function declarationOf(file: string, name: string, seen = new Set<string>()): Declaration | undefined {
  const key = `${file}#${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const found: Declaration = { doc: "", texts: [] };
  for (const st of statementsOf(file)) {
    const m = DECLARATION.exec(st.text);
    if (m?.[2] === name) {
      if (found.texts.length === 0) (found as { doc: string }).doc = docText(st.doc);
      found.texts.push(st.text.replace(/^export (declare )?/, ""));
    }
  }
  if (found.texts.length > 0) return found;
  for (const st of statementsOf(file)) {
    const re = /^(?:export|import)(?: type)? \{([^}]*)\} from ["']([^"']+)["']/.exec(st.text);
    if (!re) continue;
    const hit = names(re[1]!).find(([exported]) => exported === name);
    if (hit) return declarationOf(target(file, re[2]!), hit[1], seen);
  }
  for (const st of statementsOf(file)) {
    const star = /^export \* from ["']([^"']+)["']/.exec(st.text);
    const d = star && declarationOf(target(file, star[1]!), name, seen);
    if (d) return d;
  }
  return undefined;
}

/** One entry point's section: its exports in order, each with the comments and declaration. */
function entrySection(entry: { name: string; file: string }): string {
  const out = [`## \`${entry.name}\``, ""];
  const imports = new Map<string, [string, string]>();
  for (const st of statementsOf(entry.file)) {
    const im = /^import(?: type)? \{([^}]*)\} from ["']([^"']+)["']/.exec(st.text);
    if (im) for (const [exported, local] of names(im[1]!)) imports.set(exported, [target(entry.file, im[2]!), local]);
  }
  for (const st of statementsOf(entry.file)) {
    if (st.text.startsWith("import ")) continue;
    const intro = docText(st.doc);
    const ns = /^export (?:type )?\* as (\w+) from ["']([^"']+)["']/.exec(st.text);
    const list = /^export(?: type)? \{([^}]*)\}(?: from ["']([^"']+)["'])?/.exec(st.text);
    const own = DECLARATION.exec(st.text);
    if (ns) {
      out.push(`### \`${ns[1]}\` (namespace)`, "", ...(intro ? [intro, ""] : []));
    } else if (list) {
      if (intro) out.push(intro, "");
      for (const [exported, local] of names(list[1]!)) {
        const d = list[2]
          ? declarationOf(target(entry.file, list[2]), local)
          : imports.has(local)
            ? declarationOf(...imports.get(local)!)
            : declarationOf(entry.file, local);
        out.push(...symbol(exported, d));
      }
    } else if (own) {
      const d = declarationOf(entry.file, own[2]!);
      // Overloads and an interface's declaration merging appear once, at the first.
      if (d && d.texts[0] === st.text.replace(/^export (declare )?/, "")) out.push(...symbol(own[2]!, d));
    }
  }
  return out.join("\n");
}

function symbol(name: string, d: Declaration | undefined): string[] {
  const out = [`### \`${name}\``, ""];
  if (d?.doc) out.push(d.doc, "");
  if (d) out.push("```ts", ...d.texts, "```", "");
  return out;
}

export function apiDocText(): string {
  const head = [
    "# API reference",
    "",
    "<!-- Generated by scripts/gen-api-docs.ts from the declarations `npm run build` emits; do not edit. -->",
    "",
    "The library's two entry points: `onnxtxt` (browser-safe) and `onnxtxt/node` (files). Each",
    "export is listed in the order of its entry file, with its TSDoc and declaration. The guide",
    "with examples is [javascript.md](javascript.md).",
    "",
  ];
  return `${[...head, ...ENTRIES.map(entrySection)].join("\n").trimEnd()}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = writeOrCheck(process.argv.slice(2), API_DOC, apiDocText(), "npm run build && node dist/scripts/gen-api-docs.js");
}
