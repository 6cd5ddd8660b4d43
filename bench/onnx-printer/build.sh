#!/bin/sh
# Builds bench/onnx-printer/driver.cc against an onnx source tree (github.com/onnx/onnx, only its
# onnx/ folder is needed) with Debian's protobuf: apt-get install g++ protobuf-compiler libprotobuf-dev.
# The onnx sources are read from ONNX_SRC and compiled in OUT; nothing is copied into this repo.
# Usage: bench/onnx-printer/build.sh ONNX_SRC [OUT]   (OUT defaults to ONNX_SRC/build-printer)
# Then: ONNX_PRINTER=OUT/onnx-printer npm run bench:big
set -eu
if [ $# -lt 1 ] || [ ! -f "$1/onnx/defs/printer.cc" ]; then
  echo "usage: $0 ONNX_SRC [OUT]  (ONNX_SRC: an onnx checkout, with onnx/defs/printer.cc)" >&2
  exit 2
fi
SRC=$(cd "$1" && pwd)
OUT=${2:-$SRC/build-printer}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/onnx"
# onnx-ml.proto is what onnx's Python package is built with (ONNX_ML=1); its package is `onnx`.
cp "$SRC/onnx/onnx-ml.proto" "$OUT/onnx/onnx-ml.proto"
protoc --proto_path="$OUT" --cpp_out="$OUT" "$OUT/onnx/onnx-ml.proto"
CXX=${CXX:-g++}
FLAGS="-std=c++17 -O2 -DNDEBUG -DONNX_ML=1 -DONNX_NAMESPACE=onnx -I$OUT -I$SRC"
for f in onnx/defs/printer.cc onnx/defs/parser.cc onnx/defs/tensor_proto_util.cc onnx/defs/data_type_utils.cc onnx/common/status.cc; do
  nice $CXX $FLAGS -c "$SRC/$f" -o "$OUT/$(basename "$f" .cc).o"
done
nice $CXX $FLAGS -c "$OUT/onnx/onnx-ml.pb.cc" -o "$OUT/onnx-ml.pb.o"
nice $CXX $FLAGS -c "$HERE/driver.cc" -o "$OUT/driver.o"
$CXX -o "$OUT/onnx-printer" "$OUT"/*.o -lprotobuf -lpthread
echo "$OUT/onnx-printer"
