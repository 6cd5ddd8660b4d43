// The graph view's page script (runs in the webview, bundled for the browser). It lays the
// display graph out with ELK in a Web Worker, draws it with the same SVG renderer as
// `onnxtxt graph`, and talks to the extension by messages: `reveal` when a box is clicked,
// `cursor` moves the selection, `graph` brings a new picture after an edit.
import * as elkApi from "elkjs/lib/elk-api.js";
import type { ElkNode } from "elkjs/lib/elk-api.js";
import type { DisplayGraph, DisplayNode } from "../../../core/src/graph/display-graph.js";
import { toElk, type LayoutEngine } from "../../../core/src/graph/layout.js";
import { renderSvg } from "../../../core/src/graph/svg.js";
import type { GraphViewData } from "../../../core/src/graph/view-data.js";
import type { FromView, ToView } from "./graph-messages.js";

interface VsCodeApi {
  postMessage(message: FromView): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

interface Viewport {
  x: number;
  y: number;
  scale: number;
}

interface ViewState {
  viewport: Viewport;
  /** Node ids whose bodies are drawn inside them. */
  expanded: string[];
  /** Node ids the user folded (so a re-layout does not open them again). */
  folded: string[];
}

const vscode = acquireVsCodeApi();
const stage = document.getElementById("stage")!;
const canvas = document.getElementById("canvas")!;
const status = document.getElementById("status")!;
const search = document.getElementById("search") as HTMLInputElement;

const saved = vscode.getState() as ViewState | undefined;
const state: ViewState = saved ?? { viewport: { x: 0, y: 0, scale: 1 }, expanded: [], folded: [] };
let data: GraphViewData | undefined;
let cursor: number | undefined;
let layoutRun = 0;
let engine: LayoutEngine | undefined;
let lastLayout: { key: string; result: ElkNode } | undefined;

/** elkjs is CommonJS: its constructor is the bundled module's default export. */
const Elk = (elkApi as unknown as { default: new (options: { workerFactory: () => Worker }) => LayoutEngine }).default;

async function layoutEngine(workerUrl: string): Promise<LayoutEngine> {
  if (engine) return engine;
  // A worker from the extension's folder is cross-origin to the webview: load it as a blob.
  const code = await (await fetch(workerUrl)).text();
  const blobUrl = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  engine = new Elk({ workerFactory: () => new Worker(blobUrl) });
  return engine;
}

function applyViewport(): void {
  const { x, y, scale } = state.viewport;
  canvas.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
  vscode.setState(state);
}

/** Every node with bodies, first level open unless folded, deeper levels as the user chose. */
function expandedSet(graph: DisplayGraph): Set<string> {
  const open = new Set(state.expanded);
  for (const n of graph.nodes) if (n.groups.length > 0 && !state.folded.includes(n.id)) open.add(n.id);
  return open;
}

function allNodes(graph: DisplayGraph, out: DisplayNode[] = []): DisplayNode[] {
  for (const n of graph.nodes) {
    out.push(n);
    for (const g of n.groups) allNodes(g, out);
  }
  return out;
}

async function draw(workerUrl: string): Promise<void> {
  if (!data) return;
  const run = ++layoutRun;
  const started = performance.now();
  const input = toElk(data.graph, expandedSet(data.graph));
  // Most edits change a value or an attribute, not the boxes and wires: reuse the last layout.
  const key = JSON.stringify(input);
  const reused = key === lastLayout?.key;
  const laidOut = reused ? lastLayout!.result : await (await layoutEngine(workerUrl)).layout(input);
  if (run !== layoutRun) return; // a newer graph arrived while this one was laid out
  lastLayout = { key, result: laidOut };
  canvas.innerHTML = renderSvg(data.graph, laidOut);
  decorateValues();
  const notes = data.notes.length > 0 ? ` · ${data.notes.join(" · ")}` : "";
  status.textContent = `${allNodes(data.graph).filter((n) => n.kind === "op").length} ops · ${reused ? "layout kept" : "laid out"}, drawn in ${Math.round(performance.now() - started)} ms${notes}`;
  document.body.dataset["ready"] = String(run);
  if (cursor !== undefined) select(cursor, false);
}

/** Run values in the edges' tooltips. */
function decorateValues(): void {
  if (!data) return;
  for (const path of canvas.querySelectorAll<SVGPathElement>("path.edge")) {
    const value = data.values[path.dataset["value"] ?? ""];
    const title = path.querySelector("title");
    if (value !== undefined && title) title.textContent += `\n= ${value}`;
  }
}

type Spanned = SVGGElement & { dataset: { start: string; end: string; id: string } };

function spanned(): Spanned[] {
  return [...canvas.querySelectorAll<SVGGElement>("g[data-start]")] as Spanned[];
}

/** Selects the innermost box whose statement holds `offset`; optionally scrolls it into view. */
function select(offset: number, scroll: boolean): void {
  let best: Spanned | undefined;
  for (const g of spanned()) {
    const start = Number(g.dataset.start),
      end = Number(g.dataset.end);
    if (offset < start || offset > end) continue;
    if (!best || end - start <= Number(best.dataset.end) - Number(best.dataset.start)) best = g;
  }
  for (const g of canvas.querySelectorAll(".selected")) g.classList.remove("selected");
  if (!best) return;
  best.classList.add("selected");
  if (scroll) centerOn(best);
}

function centerOn(el: Element): void {
  const box = el.getBoundingClientRect();
  const view = stage.getBoundingClientRect();
  const inside = box.left >= view.left && box.right <= view.right && box.top >= view.top && box.bottom <= view.bottom;
  if (inside) return;
  state.viewport.x += view.left + view.width / 2 - (box.left + box.width / 2);
  state.viewport.y += view.top + view.height / 2 - (box.top + box.height / 2);
  applyViewport();
}

function boxAt(target: EventTarget | null): Spanned | undefined {
  const g = (target as Element | null)?.closest?.("g[data-id]");
  return g && g.hasAttribute("data-start") ? (g as Spanned) : undefined;
}

function toggle(id: string, workerUrl: string): void {
  const node = data && allNodes(data.graph).find((n) => n.id === id);
  if (!node || node.groups.length === 0) return;
  const open = expandedSet(data!.graph).has(id);
  state.expanded = state.expanded.filter((e) => e !== id);
  state.folded = state.folded.filter((e) => e !== id);
  if (open) state.folded.push(id);
  else state.expanded.push(id);
  void draw(workerUrl);
}

function findNext(query: string): void {
  const q = query.trim().toLowerCase();
  if (!q || !data) return;
  const matches = allNodes(data.graph).filter((n) => `${n.label} ${n.name ?? ""} ${n.details.join(" ")}`.toLowerCase().includes(q));
  const els = matches.map((n) => canvas.querySelector(`g[data-id="${CSS.escape(n.id)}"]`)).filter((e): e is SVGGElement => e !== null);
  if (els.length === 0) {
    status.textContent = `no box matches '${query}'`;
    return;
  }
  const current = els.findIndex((e) => e.classList.contains("selected"));
  const next = els[(current + 1) % els.length]!;
  for (const g of canvas.querySelectorAll(".selected")) g.classList.remove("selected");
  next.classList.add("selected");
  centerOn(next);
  status.textContent = `${((current + 1) % els.length) + 1} of ${els.length} boxes match '${query}'`;
}

function start(workerUrl: string): void {
  applyViewport();
  let drag: { x: number; y: number; moved: boolean } | undefined;
  stage.addEventListener("pointerdown", (e) => {
    drag = { x: e.clientX, y: e.clientY, moved: false };
  });
  stage.addEventListener("pointermove", (e) => {
    if (!drag || (e.buttons & 1) === 0) return;
    const dx = e.clientX - drag.x,
      dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    drag = { x: e.clientX, y: e.clientY, moved: true };
    state.viewport.x += dx;
    state.viewport.y += dy;
    applyViewport();
  });
  stage.addEventListener("pointerup", (e) => {
    const wasDrag = drag?.moved;
    drag = undefined;
    if (wasDrag) return;
    const box = boxAt(e.target);
    if (!box) return;
    for (const g of canvas.querySelectorAll(".selected")) g.classList.remove("selected");
    box.classList.add("selected");
    vscode.postMessage({ type: "reveal", start: Number(box.dataset.start), end: Number(box.dataset.end) });
  });
  stage.addEventListener("dblclick", (e) => {
    const g = (e.target as Element).closest?.("g[data-id]");
    if (g) toggle(g.getAttribute("data-id")!, workerUrl);
  });
  stage.addEventListener(
    "wheel",
    (e) => {
      e.preventDefault();
      const factor = Math.exp(-e.deltaY * 0.0015);
      const { x, y, scale } = state.viewport;
      const next = Math.min(4, Math.max(0.05, scale * factor));
      const rect = stage.getBoundingClientRect();
      const px = e.clientX - rect.left,
        py = e.clientY - rect.top;
      state.viewport = { x: px - ((px - x) * next) / scale, y: py - ((py - y) * next) / scale, scale: next };
      applyViewport();
    },
    { passive: false },
  );
  search.addEventListener("keydown", (e) => {
    if (e.key === "Enter") findNext(search.value);
  });
  window.addEventListener("message", (e: MessageEvent<ToView>) => {
    const m = e.data;
    if (m.type === "graph") {
      if (m.data) {
        data = m.data;
        void draw(workerUrl);
      } else {
        status.textContent = "the text has errors: showing the last graph that lowered";
      }
    } else if (m.type === "cursor") {
      cursor = m.offset;
      select(m.offset, true);
    }
  });
  vscode.postMessage({ type: "ready" });
}

start(document.body.dataset["elkWorker"]!);
