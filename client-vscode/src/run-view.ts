// The run output view's HTML: each output as a table with its shape and type, truncated to a
// limit with buttons to see more; a failure as a message naming the node that failed.
import type { RunCellOutput } from "../../core/src/ide/run-cell.js";
import type { RunFailure } from "./run-protocol.js";
import { elementCount, parseSequenceText, parseTensorText, type TensorText } from "./tensor-text.js";

export interface RunViewModel {
  /** What ran: `graph main of model.onnxtxt`. */
  readonly title: string;
  readonly outputs: readonly RunCellOutput[];
  readonly elapsedMs?: number;
  readonly failure?: RunFailure;
  /** True while the run is under way (nothing to show yet). */
  readonly running?: boolean;
  /** Input name -> where its value came from. */
  readonly inputSources?: Readonly<Record<string, string>>;
  /** Elements shown per output, index-aligned with `outputs`. */
  readonly limits: readonly number[];
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Row-major index -> `[i, j, k]`. */
function indexOf(flat: number, dims: readonly number[]): number[] {
  const out = new Array<number>(dims.length);
  for (let d = dims.length - 1; d >= 0; d--) {
    out[d] = flat % dims[d]!;
    flat = Math.floor(flat / dims[d]!);
  }
  return out;
}

interface Shown {
  readonly html: string;
  readonly shown: number;
}

/** A single row longer than this wraps. */
const WRAP_COLUMNS = 16;

/** One 2-D slice (rows x cols) starting at `offset`, showing at most `budget` elements. */
function sliceTable(t: TensorText, offset: number, rows: number, cols: number, budget: number, caption: string): Shown {
  const shownCols = Math.min(cols, budget);
  const shownRows = Math.min(rows, Math.max(1, Math.floor(budget / shownCols)));
  const head = Array.from({ length: shownCols }, (_, c) => `<th>${c}</th>`).join("") + (shownCols < cols ? "<th>…</th>" : "");
  const body: string[] = [];
  for (let r = 0; r < shownRows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < shownCols; c++) cells.push(`<td>${escapeHtml(t.values[offset + r * cols + c]!)}</td>`);
    if (shownCols < cols) cells.push('<td class="more">…</td>');
    body.push(`<tr><th>${r}</th>${cells.join("")}</tr>`);
  }
  if (shownRows < rows) body.push(`<tr><th>…</th><td class="more" colspan="${shownCols + (shownCols < cols ? 1 : 0)}">…</td></tr>`);
  const cap = caption ? `<caption>${escapeHtml(caption)}</caption>` : "";
  if (shownRows === 1 && rows === 1 && shownCols > WRAP_COLUMNS) {
    // One long row ([1, 1000] logits): cells that wrap, each with its index, instead of a row
    // that scrolls sideways.
    const cells = Array.from({ length: shownCols }, (_, c) => `<td><span class="index">${c}</span> ${escapeHtml(t.values[offset + c]!)}</td>`);
    if (shownCols < cols) cells.push('<td class="more">…</td>');
    return { html: `<table class="wrapped">${cap}<tbody><tr>${cells.join("")}</tr></tbody></table>`, shown: shownCols };
  }
  return {
    html: `<table>${cap}<thead><tr><th></th>${head}</tr></thead><tbody>${body.join("")}</tbody></table>`,
    shown: shownRows * shownCols,
  };
}

/** The tables for a tensor of any rank, stopping once `limit` elements are shown. */
export function tensorTables(t: TensorText, limit: number): Shown {
  const rank = t.dims.length;
  const total = elementCount(t.dims);
  if (total === 0) return { html: '<p class="empty">(no elements)</p>', shown: 0 };
  if (rank === 0) return { html: `<table class="scalar"><tbody><tr><td>${escapeHtml(t.values[0]!)}</td></tr></tbody></table>`, shown: 1 };
  const cols = t.dims[rank - 1]!;
  const rows = rank >= 2 ? t.dims[rank - 2]! : 1;
  const sliceSize = rows * cols;
  const parts: string[] = [];
  let shown = 0;
  for (let offset = 0; offset < total && shown < limit; offset += sliceSize) {
    const lead = rank > 2 ? indexOf(offset, t.dims).slice(0, rank - 2) : [];
    const caption = rank > 2 ? `[${[...lead, ":", ":"].join(", ")}]` : "";
    const s = sliceTable(t, offset, rows, cols, limit - shown, caption);
    parts.push(s.html);
    shown += s.shown;
  }
  return { html: parts.join("\n"), shown };
}

function tensorBlock(tensor: TensorText, limit: number): { html: string; shown: number; total: number } {
  const total = elementCount(tensor.dims);
  const shape = `<p class="shape">shape [${tensor.dims.join(", ")}], ${total} element${total === 1 ? "" : "s"} of ${escapeHtml(tensor.elemType)}</p>`;
  const tables = tensorTables(tensor, limit);
  return { html: shape + tables.html, shown: tables.shown, total };
}

function outputSection(o: RunCellOutput, index: number, limit: number): string {
  const title = `<h2><span class="name">${escapeHtml(o.name)}</span> <span class="type">${escapeHtml(o.type)}</span></h2>`;
  const tensor = parseTensorText(o.text);
  if (tensor) {
    const block = tensorBlock(tensor, limit);
    const more = block.shown < block.total ? moreButtons(index, `showing ${block.shown} of ${block.total} elements`) : "";
    return `<section>${title}${block.html}${more}</section>`;
  }
  const items = parseSequenceText(o.text)?.map(parseTensorText);
  if (items && items.every((t) => t !== undefined)) {
    let budget = limit;
    let shown = 0;
    let total = 0;
    const parts = items.map((t, i) => {
      const block = tensorBlock(t!, Math.max(budget, 0));
      budget -= block.shown;
      shown += block.shown;
      total += block.total;
      return `<div class="item"><h3>item ${i}</h3>${block.html}</div>`;
    });
    const more = shown < total ? moreButtons(index, `showing ${shown} of ${total} elements`) : "";
    return `<section>${title}<p class="shape">sequence of ${items.length} tensor${items.length === 1 ? "" : "s"}</p>${parts.join("")}${more}</section>`;
  }
  const long = o.text.length > limit * 16;
  const text = long ? o.text.slice(0, limit * 16) + " …" : o.text;
  return `<section>${title}<pre>${escapeHtml(text)}</pre>${long ? moreButtons(index, "text truncated") : ""}</section>`;
}

function moreButtons(index: number, note: string): string {
  return (
    `<p class="truncated">${escapeHtml(note)} ` +
    `<button data-action="more" data-output="${index}">Show more</button> ` +
    `<button data-action="all" data-output="${index}">Show all</button></p>`
  );
}

function failureSection(f: RunFailure): string {
  const where = f.node ? ` at node <code>${escapeHtml(f.node)}</code>` : "";
  const line = f.range ? ` (line ${f.range.start.line + 1})` : "";
  const reveal = f.range ? ' <button data-action="reveal">Go to node</button>' : "";
  return `<section class="failure"><h2>Run failed${where}${line}</h2><pre>${escapeHtml(f.message)}</pre>${reveal}</section>`;
}

const SOURCE_WORDS: Readonly<Record<string, string>> = {
  request: "given",
  directive: "from # @input",
  test_data_set_0: "from test_data_set_0",
  default: "generated",
};

function inputsLine(sources: Readonly<Record<string, string>> | undefined): string {
  const entries = Object.entries(sources ?? {});
  if (entries.length === 0) return "";
  const parts = entries.map(([name, source]) => `<code>${escapeHtml(name)}</code> ${escapeHtml(SOURCE_WORDS[source] ?? source)}`);
  return `<p class="inputs">Inputs: ${parts.join(", ")}</p>`;
}

const STYLE = `
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); }
table { border-collapse: collapse; margin: 0.4em 0; font-family: var(--vscode-editor-font-family); }
th, td { border: 1px solid var(--vscode-panel-border, #8884); padding: 2px 6px; text-align: right; }
th { color: var(--vscode-descriptionForeground); font-weight: normal; }
caption { text-align: left; color: var(--vscode-descriptionForeground); }
.type, .shape, .truncated, .inputs { color: var(--vscode-descriptionForeground); }
.failure h2 { color: var(--vscode-errorForeground); }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }
table.wrapped tr { display: flex; flex-wrap: wrap; }
table.wrapped td { min-width: 7em; }
.index { color: var(--vscode-descriptionForeground); font-size: 85%; float: left; }
`;

export function renderRunView(model: RunViewModel, nonce: string, cspSource: string): string {
  const elapsed = model.elapsedMs !== undefined && Number.isFinite(model.elapsedMs) ? ` in ${model.elapsedMs.toFixed(1)} ms` : "";
  const sections = model.failure ? [failureSection(model.failure)] : model.outputs.map((o, i) => outputSection(o, i, model.limits[i] ?? 100));
  const status = model.running
    ? '<p class="status">Running…</p>'
    : model.failure
      ? ""
      : `<p class="status">${model.outputs.length} output${model.outputs.length === 1 ? "" : "s"}${elapsed}</p>${inputsLine(model.inputSources)}`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<style nonce="${nonce}">${STYLE}</style>
<title>${escapeHtml(model.title)}</title></head>
<body><h1>${escapeHtml(model.title)}</h1>${status}
${sections.join("\n")}
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.addEventListener("click", (e) => {
  const b = e.target.closest("button[data-action]");
  if (b) vscode.postMessage({ action: b.dataset.action, output: Number(b.dataset.output) });
});
</script></body></html>`;
}
