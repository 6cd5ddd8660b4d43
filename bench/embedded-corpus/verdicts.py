# onnx's parser (Debian's onnx 1.12 under /usr/bin/python3) on each region text of a corpus run:
# reads a JSON list of {"kind", "text"} from argv[1], prints a JSON list of null (accepted) or the
# error's first line. onnx 1.12 has only parse_model and parse_graph: a node or node list is read
# as a graph's body and a function inside a model, as onnx's newer entries read them.
import json
import sys

import onnx.parser

WRAP = '<ir_version: 8, opset_import: ["" : 18]>\nwrapper_host () => () {}\n'


def verdict(kind, s):
    try:
        if kind == "model":
            onnx.parser.parse_model(s)
        elif kind == "graph":
            onnx.parser.parse_graph(s)
        elif kind == "function":
            onnx.parser.parse_model(WRAP + s)
        else:
            body = s if s.lstrip().startswith("{") else "{\n" + s + "\n}"
            onnx.parser.parse_graph("wrapper_body () => () " + body)
        return None
    except Exception as e:
        # onnx 1.12 raises with bytes: "[ParseError at position (...)]\nError context: ...\nExpected ..."
        arg = e.args[0] if e.args else type(e).__name__
        lines = (arg.decode("utf-8", "replace") if isinstance(arg, bytes) else str(arg)).strip().split("\n")
        context = next((l for l in lines if l.startswith("Error context:")), "")
        return (lines[-1] + " | " + context.replace("Error context:", "").strip())[:200]


print(json.dumps([verdict(r["kind"], r["text"]) for r in json.load(open(sys.argv[1], encoding="utf-8"))]))
