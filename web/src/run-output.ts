// The run's outputs, as the extension's run view shows them (client-vscode/src/run-view.ts):
// each output's name and type, its shape, and its values as a table, truncated. Built from DOM
// nodes and textContent only: names come from the model, which may come from a share link.
import type { RunCellOutput } from "../../core/src/ide/run-cell.js";
import { elementCount, parseTensorText } from "../../client-vscode/src/tensor-text.js";

/** Elements shown per output. */
const SHOWN = 1000;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

function table(values: readonly string[], dims: readonly number[]): HTMLTableElement {
  const t = el("table");
  const cols = dims.length === 0 ? 1 : dims[dims.length - 1]!;
  const shown = Math.min(values.length, SHOWN);
  let row: HTMLTableRowElement | undefined;
  for (let i = 0; i < shown; i++) {
    if (i % Math.max(1, Math.min(cols, 16)) === 0) {
      row = t.insertRow();
      row.appendChild(el("th", String(i)));
    }
    row!.appendChild(el("td", values[i]!));
  }
  return t;
}

function outputSection(o: RunCellOutput): HTMLElement {
  const s = el("section", undefined, "output");
  const h = el("h3");
  h.append(el("span", o.name, "name"), " ", el("span", o.type, "type"));
  s.appendChild(h);
  const tensor = parseTensorText(o.text);
  if (tensor) {
    const total = elementCount(tensor.dims);
    s.appendChild(el("p", `shape [${tensor.dims.join(", ")}], ${total} element${total === 1 ? "" : "s"} of ${tensor.elemType}`, "shape"));
    s.appendChild(table(tensor.values, tensor.dims));
    if (total > SHOWN) s.appendChild(el("p", `first ${SHOWN} of ${total} elements shown; the text below has them all`, "truncated"));
  }
  // The value as the CLI's `onnxtxt run` prints it.
  const pre = el("pre", `${o.name}: ${o.text}`, "value");
  s.appendChild(pre);
  return s;
}

export function showOutputs(into: HTMLElement, outputs: readonly RunCellOutput[], elapsedMs: number, sources: Readonly<Record<string, string>>): void {
  into.replaceChildren();
  const inputs = Object.entries(sources).map(([name, from]) => `${name} (${from})`);
  into.appendChild(
    el(
      "p",
      `${outputs.length} output${outputs.length === 1 ? "" : "s"} in ${elapsedMs.toFixed(1)} ms${inputs.length ? ` · inputs: ${inputs.join(", ")}` : ""}`,
      "status",
    ),
  );
  for (const o of outputs) into.appendChild(outputSection(o));
}

export function showMessage(into: HTMLElement, message: string, className: string): void {
  into.replaceChildren(el("pre", message, className));
}
