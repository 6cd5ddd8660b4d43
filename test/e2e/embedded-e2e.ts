// The end-to-end checks of issue #30 in the real editor: ONNX text inside a Python string (a
// parse_model call in a test method), a C++ raw string and a Markdown fence. For the Python
// string: the injection grammar colours the op name unlike the Python string around it, a
// misspelt op gets a squiggle at its line and column, a hover on a value shows its inferred
// type, and Format Document formats the string in place. For the C++ string and the fence: the
// squiggle on a misspelt op at its place. Run by vscode-e2e.ts (`npm run test:e2e`).
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "./browser.js";

/** What these checks use of vscode-e2e.ts's editor driver. */
export interface EditorDriver {
  readonly page: Page;
  shot(name: string): Promise<void>;
  command(title: string): Promise<void>;
  open(file: string): Promise<void>;
  goTo(line: number, column: number): Promise<void>;
  cursor(): Promise<{ line: number; column: number }>;
  hoverText(): Promise<string>;
  save(): Promise<void>;
}

export interface Kit {
  ed: EditorDriver;
  check: (step: string, ok: boolean, detail?: string) => void;
  until: <T>(what: string, f: () => Promise<T | undefined | false>, timeoutMs?: number) => Promise<T>;
}

export const PY_FILE = "test_relu.py";
export const CPP_FILE = "shrinkish_defs.cc";
export const MD_FILE = "ONNX_README.md";

export const PY = `import onnx
import onnx.parser

GREETING = "a plain Python string"


class ReluTest:
    def test_relu(self):
        model = onnx.parser.parse_model(
            """
            <ir_version: 8, opset_import: ["" : 18]>
            agraph (float[N, 4] X) => (float[N, 4] Y)
            {
                T = Relu(X)
                Y = Sigmoid(T)
            }
            """
        )
        onnx.checker.check_model(model)
`;

export const CPP = `#include "onnx/defs/schema.h"

namespace ONNX_NAMESPACE {
ONNX_OPERATOR_SET_SCHEMA(
    Shrinkish,
    18,
    OpSchema()
        .Input(0, "input", "The input data", "T")
        .Output(0, "output", "The output", "T")
        .FunctionBody(R"ONNX(
          {
            Lambd = Constant <value_float: float = @lambd>()
            LambdCast = CastLike (Lambd, input)
            output = Subb (input, LambdCast)
          }
        )ONNX", 18));
} // namespace ONNX_NAMESPACE
`;

export const MD = `# A model

Some text with a \`parse_model\` mention, and a Python fence that is not ONNX:

\`\`\`python
y = neg(x)
\`\`\`

The model:

\`\`\`onnx
<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
  t = Abs(x)
  y = Negg(t)
}
\`\`\`
`;

export function prepareEmbedded(folder: string): void {
  fs.writeFileSync(path.join(folder, PY_FILE), PY);
  fs.writeFileSync(path.join(folder, CPP_FILE), CPP);
  fs.writeFileSync(path.join(folder, MD_FILE), MD);
}

/** The 1-based line and column of the first `needle` in `text` (plus `skip` characters). */
function at(text: string, needle: string, skip = 0): { line: number; column: number } {
  const i = text.indexOf(needle);
  if (i < 0) throw new Error(`'${needle}' not in the text`);
  const before = text.slice(0, i + skip);
  return { line: before.split("\n").length, column: i + skip - before.lastIndexOf("\n") };
}

/** The editor of `file` (its `.monaco-editor` carries the document's URI). */
const inEditor = (file: string, selector: string): string => `.monaco-editor[data-uri$="${file}"] ${selector}`;

/**
 * The squiggle check: after the file is open, one error squiggle in its editor, and Go to Next
 * Problem from the top lands on `needle` with a message naming it.
 */
async function squiggleAt(kit: Kit, step: string, file: string, text: string, needle: string, shot: string): Promise<void> {
  const { ed, check, until } = kit;
  const page = ed.page;
  const want = at(text, needle);
  try {
    await until(`squiggle in ${file}`, async () => (await page.locator(inEditor(file, ".squiggly-error")).count()) > 0 || undefined, 30000);
  } catch {
    check(step, false, `no squiggle in ${file} within 30 s`);
    await ed.shot(shot);
    return;
  }
  const squiggles = await page.locator(inEditor(file, ".squiggly-error")).count();
  await ed.goTo(1, 1);
  await page.keyboard.press("F8");
  const message = await until(
    "problem message",
    async () => {
      const m = page.locator(inEditor(file, ".marker-widget .descriptioncontainer"));
      return (await m.count()) > 0 ? (await m.first().innerText()) || undefined : undefined;
    },
    10000,
  ).catch(() => "(no problem widget)");
  // The status bar shows the new cursor a moment after the widget: wait for it to leave 1:1
  // (no problem here is there).
  const landed = await until(
    "cursor at the problem",
    async () => {
      const c = await ed.cursor();
      return c.line !== 1 || c.column !== 1 ? c : undefined;
    },
    5000,
  ).catch(() => ed.cursor());
  await ed.shot(shot);
  check(
    step,
    squiggles === 1 && landed.line === want.line && landed.column === want.column && message.includes(needle),
    `${squiggles} squiggle(s); next problem at ${landed.line}:${landed.column} (${needle} at ${want.line}:${want.column}): ${message.split("\n")[0]}`,
  );
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
}

/** The class (`mtkN`, the colour) of the token span containing `token` on the line containing `line`. */
async function tokenClass(page: Page, file: string, line: string, token: string): Promise<string | null> {
  return page.evaluate<string | null>(`(() => {
    const norm = (s) => (s || "").replace(/\\u00a0/g, " ");
    const editor = document.querySelector(${JSON.stringify(`.monaco-editor[data-uri$="${file}"]`)});
    if (!editor) return null;
    const row = [...editor.querySelectorAll(".view-line")].find((l) => norm(l.textContent).includes(${JSON.stringify(line)}));
    if (!row) return null;
    const span = [...row.querySelectorAll("span > span")].find((s) => norm(s.textContent).includes(${JSON.stringify(token)}));
    return span ? span.className : null;
  })()`);
}

async function python(kit: Kit, folder: string): Promise<void> {
  const { ed, check, until } = kit;
  const page = ed.page;
  await ed.open(PY_FILE);
  await until("the Python file's lines", async () => (await page.locator(inEditor(PY_FILE, ".view-line")).count()) > 10 || undefined);
  await ed.goTo(1, 1);
  await page.waitForTimeout(1000);

  // (1) ONNX colours inside the string: the op name is not coloured as Python string text is.
  // The line is matched from its `=`: an inlay hint (`T: float[N, 4]`) sits between T and it.
  const classes = async () => ({
    op: await tokenClass(page, PY_FILE, "= Relu(X)", "Relu"),
    str: await tokenClass(page, PY_FILE, "GREETING =", "plain Python"),
    header: await tokenClass(page, PY_FILE, "<ir_version", "ir_version"),
  });
  const colours = await until(
    "token classes",
    async () => {
      const c = await classes();
      return c.op && c.str && c.header ? c : undefined;
    },
    15000,
  ).catch(classes);
  check(
    "python string: ONNX colours inside the string",
    colours.op !== null && colours.str !== null && colours.header !== null && colours.op !== colours.str && colours.header !== colours.str,
    `'Relu' ${colours.op}, 'ir_version' ${colours.header}, a plain Python string ${colours.str}`,
  );
  await ed.shot("10-python-colours");

  // (3) A hover with the inferred type on a value inside the string.
  const t = at(PY, "T = Relu");
  await ed.goTo(t.line, t.column);
  const hover = await ed.hoverText().catch(() => "(no hover)");
  check("python string: hover with the inferred type", /float\[N, ?4\]/.test(hover), hover.split("\n").slice(0, 2).join(" | "));
  await page.waitForTimeout(400);
  await ed.shot("11-python-hover");
  await page.keyboard.press("Escape");

  // (2) A squiggle on a misspelt op, at its line and column.
  const relu = at(PY, "T = Relu", 4);
  await ed.goTo(relu.line, relu.column + 4);
  await page.keyboard.type("x");
  await squiggleAt(kit, "python string: squiggle on a misspelt op", PY_FILE, PY.replace("Relu(X)", "Relux(X)"), "Relux", "12-python-squiggle");
  await ed.goTo(relu.line, relu.column + 5);
  await page.keyboard.press("Backspace");
  await until("python squiggle gone", async () => (await page.locator(inEditor(PY_FILE, ".squiggly-error")).count()) === 0 || undefined, 15000).catch(
    () => undefined,
  );

  // (4) Format Document formats the string in place; the Python around it is untouched.
  await ed.command("Format Document");
  const file = path.join(folder, PY_FILE);
  const shown = await until(
    "formatted string in the editor",
    async () => {
      const v = (await page.locator(inEditor(PY_FILE, ".view-lines")).first().innerText()).replace(/\u00a0/g, " ");
      return v.includes("Relu (X)") ? v : undefined;
    },
    15000,
  ).catch(async () => (await page.locator(inEditor(PY_FILE, ".view-lines")).first().innerText()).replace(/\u00a0/g, " "));
  await ed.shot("13-python-formatted");
  await ed.save();
  const saved = await until(
    "saved Python file",
    async () => {
      const s = fs.readFileSync(file, "utf8");
      return s !== PY ? s : undefined;
    },
    5000,
  ).catch(() => fs.readFileSync(file, "utf8"));
  const start = PY.indexOf('"""');
  const end = PY.lastIndexOf('"""');
  const outsideKept = saved.startsWith(PY.slice(0, start + 3)) && saved.endsWith(PY.slice(end));
  check(
    "python string: Format Document formats the string",
    shown.includes("Relu (X)") && saved.includes("T = Relu (X)") && !saved.includes("Relu(X)") && saved.includes("Y = Sigmoid (T)") && outsideKept,
    saved === PY
      ? "the saved file is unchanged"
      : `saved string: ${JSON.stringify(saved.slice(start, saved.lastIndexOf('"""') + 3))}; Python outside the string ${outsideKept ? "kept" : "CHANGED"}`,
  );
}

/** All of issue #30's checks in the real editor; each failure is reported, none stops the others. */
/** Runs each group of checks; one that throws is a failed check with a screenshot, and the next still runs. */
export async function runSteps(kit: Kit, steps: readonly [string, () => Promise<void>][]): Promise<void> {
  for (const [what, run] of steps) {
    try {
      await run();
    } catch (e) {
      kit.check(`${what}: the checks ran to the end`, false, e instanceof Error ? e.message : String(e));
      await kit.ed.shot(`99-failure-${what.replace(/\W+/g, "-")}`).catch(() => undefined);
      await kit.ed.page.keyboard.press("Escape").catch(() => undefined);
    }
  }
}

export async function embeddedChecks(kit: Kit, folder: string): Promise<void> {
  const steps: [string, () => Promise<void>][] = [
    ["python string", () => python(kit, folder)],
    [
      "C++ string",
      async () => {
        await kit.ed.open(CPP_FILE);
        await squiggleAt(kit, "C++ raw string: squiggle on a misspelt op", CPP_FILE, CPP, "Subb", "14-cpp-squiggle");
      },
    ],
    [
      "Markdown fence",
      async () => {
        await kit.ed.open(MD_FILE);
        await squiggleAt(kit, "Markdown fence: squiggle on a misspelt op", MD_FILE, MD, "Negg", "15-markdown-squiggle");
      },
    ],
  ];
  await runSteps(kit, steps);
}
