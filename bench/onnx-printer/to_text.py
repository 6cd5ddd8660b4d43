# onnx.printer.to_text(onnx.load(MODEL)) written to OUT, with onnx's C++ printer from
# libonnx-bench-printer.so (build.sh) where the installed onnx has no printer module.
# Usage: python3 to_text.py LIB MODEL OUT
import ctypes
import sys

import onnx

lib = ctypes.CDLL(sys.argv[1])
lib.onnx_bench_print.restype = ctypes.c_void_p
lib.onnx_bench_print.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
lib.onnx_bench_free.argtypes = [ctypes.c_void_p]
data = onnx.load(sys.argv[2]).SerializeToString()
text = lib.onnx_bench_print(data, len(data))
if not text:
    sys.exit(f"{sys.argv[2]}: not a ModelProto")
try:
    printed = ctypes.string_at(text).decode("utf-8")
finally:
    lib.onnx_bench_free(text)
with open(sys.argv[3], "w", encoding="utf-8") as out:
    out.write(printed)
