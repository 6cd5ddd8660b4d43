// Debian's onnx 1.12 (/usr/bin/python3) as the oracle for Python hosts: a fixture is run with
// onnx's parser functions (and onnxscript's from_onnx_text) replaced by recorders, so we see the
// very strings Python hands to the parser, and whether onnx 1.12's parser accepts each. onnx 1.12
// has only parse_model and parse_graph: a node or node list is read as a graph's body, a
// function inside a model, as onnx's newer entries read them.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";

export const PYTHON = "/usr/bin/python3";

export interface Recorded {
  readonly kind: string;
  /** The string the parser function received. */
  readonly text: string;
  /** When it came out of textwrap.dedent: the string given to dedent. */
  readonly dedentedFrom?: string;
  /** Undefined when onnx 1.12 parsed it, else its message. */
  readonly error?: string;
}

const HARNESS = String.raw`
import json, runpy, sys, textwrap, types
import onnx, onnx.parser

parse_model, parse_graph = onnx.parser.parse_model, onnx.parser.parse_graph
WRAP = '<ir_version: 8, opset_import: ["" : 18]>\nwrapper_host () => () {}\n'

def verdict(kind, s):
    try:
        if kind == "model": parse_model(s)
        elif kind == "graph": parse_graph(s)
        elif kind == "function": parse_model(WRAP + s)
        else:
            body = s if s.lstrip().startswith("{") else "{\n" + s + "\n}"
            parse_graph("wrapper_body () => () " + body)
        return None
    except Exception as e:
        return str(e) or type(e).__name__

dedented = {}
real_dedent = textwrap.dedent
def dedent(s):
    out = real_dedent(s)
    dedented[out] = s
    return out
textwrap.dedent = dedent

calls = []
def recorder(kind):
    def record(s, *args, **kwargs):
        entry = {"kind": kind, "text": s}
        if s in dedented: entry["dedentedFrom"] = dedented[s]
        e = verdict(kind, s)
        if e is not None: entry["error"] = e
        calls.append(entry)
    return record

for name, kind in [("parse_model", "model"), ("parse_graph", "graph"), ("parse_function", "function"), ("parse_node", "node")]:
    setattr(onnx.parser, name, recorder(kind))
script = types.ModuleType("onnxscript")
script.ir = types.ModuleType("onnxscript.ir")
script.ir.from_onnx_text = recorder("model")
sys.modules["onnxscript"] = script
sys.modules["onnxscript.ir"] = script.ir

out = []
for f in sys.argv[1:]:
    calls = []
    runpy.run_path(f, run_name="__main__")
    out.append(calls)
print(json.dumps(out))
`;

/** Whether the oracle can run here, or why not. */
export function oracleMissing(): string | undefined {
  if (!fs.existsSync(PYTHON)) return `${PYTHON} is missing`;
  const r = spawnSync(PYTHON, ["-c", "import onnx.parser"], { encoding: "utf8" });
  return r.status === 0 ? undefined : `onnx is not importable by ${PYTHON} (apt-get install python3-onnx): ${r.stderr.trim().split("\n").pop()}`;
}

/** Runs each Python file with the parser recorded; the calls of each, in the order made. */
export function recordParserCalls(files: readonly string[]): Recorded[][] {
  const r = spawnSync(PYTHON, ["-c", HARNESS, ...files], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`the onnx 1.12 harness failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Recorded[][];
}
