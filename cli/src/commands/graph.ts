// `onnxtxt graph MODEL`: the model's graph as SVG (laid out by ELK), DOT or JSON.
import * as elkModule from "elkjs/lib/elk.bundled.js";
import { diffMarks, expandedTo, layoutSvg, modelGraph, renderDot, withPositions, type DiffMarks, type LayoutEngine } from "../../../core/src/graph/index.js";
import { compareModels } from "../../../core/src/diff/index.js";
import type { SourceMap } from "../../../core/src/source-map.js";
import type { ModelProto } from "../../../proto/src/index.js";
import { flag, parseArgs, UsageError } from "../args.js";
import type { Command } from "../command.js";
import { writeOutput } from "../../../core/src/io/write-output.js";
import { about, readModel, type LoadedModel } from "../model-files.js";
import { regionModel, regionNumber } from "../embedded-input.js";
import { fragmentGraphModel } from "../../../core/src/embedded/index.js";

const USAGE = `usage: onnxtxt graph [--format svg|dot|json] [--depth N] [--compare-to OLD] [-o OUT] MODEL

Draws the graph of MODEL (.onnx or .onnxtxt): one box per operator, graph inputs and outputs,
edges labelled with each value's inferred type and shape. Bodies of If/Loop/Scan and calls of
model-local functions are drawn inside their node down to --depth levels (default 1; 0 draws
none). Big graphs stay readable: long straight runs of ops fold into one box, and what was
folded is listed on stderr. Writes to stdout, or with -o/--output to OUT. The format follows
OUT's extension (.svg, .dot, .json) unless --format says otherwise. In JSON from a text
input, each op, graph input and output carries its span (character offsets) and position
(line, column, endLine, endColumn; 1-based) in the text. With --compare-to OLD, the drawing
is a diff view: the boxes onnxtxt diff OLD MODEL finds added, changed or moved are coloured
(their changes in the tooltips; "diff" in JSON), the nodes it finds removed are drawn as
boxes of their own (red, dashed), the others dimmed; what has no box in the drawing (the
header, value infos) is listed on stderr.
--region N draws the Nth ONNX text of a Python, C/C++, Markdown or JavaScript file (from 1;
a function or node list is drawn as a graph of its own).`;

/** elkjs is CommonJS: its constructor is the module's default export under Node and esbuild. */
/** Region `n` of a host file, drawn as a model (a function or node list as a graph of its own). */
function regionGraph(file: string, n: number): Pick<LoadedModel, "model"> & Partial<Pick<LoadedModel, "text" | "sourceMap">> {
  const { model, region } = regionModel(file, n);
  return { model: fragmentGraphModel(model, region.kind) };
}

const Elk = (elkModule as unknown as { default: new () => LayoutEngine }).default;

const FORMATS = ["svg", "dot", "json"] as const;
type Format = (typeof FORMATS)[number];

function formatOf(requested: string | undefined, output: string | undefined): Format {
  const name = requested ?? output?.split(".").pop() ?? "svg";
  const found = FORMATS.find((f) => f === name);
  if (found) return found;
  if (requested !== undefined) throw new UsageError(`unknown format '${requested}' (svg, dot or json)`);
  return "svg";
}

function depthOf(text: string | undefined): number {
  if (text === undefined) return 1;
  const depth = Number(text);
  if (!Number.isInteger(depth) || depth < 0) throw new UsageError(`--depth takes a whole number >= 0, not '${text}'`);
  return depth;
}

/** The text a model was read from, for spans and positions in JSON (text input only). */
interface Source {
  readonly text: string;
  readonly sourceMap: SourceMap;
}

/** The drawing of `model` in `format`, and what was folded to keep it readable. */
export async function drawModel(
  model: ModelProto,
  format: Format,
  depth: number,
  source?: Source,
  diff?: Pick<DiffMarks, "marks" | "removed">,
): Promise<{ text: string; notes: string[] }> {
  const { graph, notes } = modelGraph(model, {
    depth,
    ...(source && format === "json" && { sourceMap: source.sourceMap }),
    ...(diff && { marks: diff.marks, removed: diff.removed }),
  });
  const text =
    format === "dot"
      ? renderDot(graph)
      : format === "json"
        ? JSON.stringify({ graph: source ? withPositions(graph, source.text) : graph, notes }, null, 1) + "\n"
        : await layoutSvg(graph, new Elk(), expandedTo(graph, depth));
  return { text, notes };
}

export const graphCommand: Command = {
  name: "graph",
  summary: "draw a model's graph as SVG, DOT or JSON",
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, {
      format: { value: true },
      depth: { value: true },
      output: { value: true, short: "o" },
      "compare-to": { value: true },
      region: { value: true },
    });
    if (args.positional.length !== 1) throw new UsageError("expected one model file");
    const output = flag(args, "output");
    const format = formatOf(flag(args, "format"), output);
    const depth = depthOf(flag(args, "depth"));
    const region = flag(args, "region");
    const input = args.positional[0]!;
    const loaded = region === undefined ? readModel(input, undefined, format === "json") : regionGraph(input, regionNumber(region));
    const source = loaded.text !== undefined && loaded.sourceMap ? { text: loaded.text, sourceMap: loaded.sourceMap } : undefined;
    const old = flag(args, "compare-to");
    let marks: DiffMarks | undefined;
    if (old !== undefined) {
      // only the drawing's ids are needed: no canonical text is printed for places
      const { diff, removed } = about(old, () => compareModels(readModel(old, (m) => io.err(m)).model, loaded.model, { canonicalPlacesUpTo: 0 }));
      marks = diffMarks(diff, loaded.model, removed);
      for (const line of marks.elsewhere) io.err(`onnxtxt graph: not drawn: ${line}\n`);
      if (diff.equal) io.err(`onnxtxt graph: ${old} and ${args.positional[0]} are the same model\n`);
    }
    const { text, notes } = await drawModel(loaded.model, format, depth, source, marks);
    for (const note of notes) io.err(`onnxtxt graph: ${note}\n`);
    if (output !== undefined) writeOutput(output, text);
    else io.out(text);
    return 0;
  },
};
