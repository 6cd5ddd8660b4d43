"""Writes every libonnx-testdata model as protobuf text format, the way onnx users make it.

usage: write_textproto.py OUT_DIR  -> OUT_DIR/<folder>/<test>.pbtxt; prints the count.
"""
import pathlib
import sys

import onnx
from google.protobuf import text_format

DATA = pathlib.Path("/usr/share/libonnx-testdata/data")

out = pathlib.Path(sys.argv[1])
count = 0
for model_file in sorted(DATA.glob("*/*/model.onnx")):
    model = onnx.load(str(model_file), load_external_data=False)
    target = out / model_file.parent.parent.name / f"{model_file.parent.name}.pbtxt"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text_format.MessageToString(model), encoding="utf-8")
    count += 1
print(count)
