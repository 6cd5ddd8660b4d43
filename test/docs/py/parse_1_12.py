"""onnx's own parser (Debian's onnx 1.12) on texts: stdin a JSON list of texts, stdout a JSON list
with, for each, {"model": base64 of the ModelProto} or {"error": the message}."""
import base64
import json
import sys

import onnx.parser

out = []
for text in json.load(sys.stdin):
    try:
        model = onnx.parser.parse_model(text)
        out.append({"model": base64.b64encode(model.SerializeToString()).decode("ascii")})
    except Exception as e:  # the parser raises its own ParseError and, on some input, ValueError
        out.append({"error": str(e) or type(e).__name__})
json.dump(out, sys.stdout)
