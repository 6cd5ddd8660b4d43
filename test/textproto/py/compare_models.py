"""Compares models read by onnx (protobuf's own text_format reader) with ours.

usage: compare_models.py TEXT_DIR BIN_DIR -> for each TEXT_DIR/**/X.pbtxt, protobuf's parse of
it must serialise to the same bytes as BIN_DIR/**/X.onnx. Prints the differing files, one a line.
"""
import pathlib
import sys

import onnx
from google.protobuf import text_format

text_dir, bin_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
compared = 0
for text_file in sorted(text_dir.rglob("*.pbtxt")):
    rel = text_file.relative_to(text_dir).with_suffix(".onnx")
    expected = text_format.Parse(text_file.read_text(encoding="utf-8"), onnx.ModelProto())
    theirs = bin_dir / rel
    if not theirs.exists():
        print(f"missing {rel}")
        continue
    ours = onnx.ModelProto()
    ours.ParseFromString(theirs.read_bytes())
    if ours.SerializeToString(deterministic=True) != expected.SerializeToString(deterministic=True):
        print(f"differs {rel}")
    compared += 1
print(f"compared {compared}", file=sys.stderr)
