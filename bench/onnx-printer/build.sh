#!/bin/sh
# Builds onnx's C++ printer from an onnx source tree (github.com/onnx/onnx, only its onnx/ folder
# is needed) with Debian's protobuf (apt-get install g++ protobuf-compiler libprotobuf-dev), two ways:
#  - OUT/onnx-printer: bench/onnx-printer/driver.cc, a program that prints a model file (no Python);
#  - OUT/lib/libonnx-bench-printer.so: printer-lib.cc, the printer for Python's ctypes
#    (to_text.py), as onnx.printer.to_text calls it; its proto package is renamed (onnxbench) so
#    that it can share a process with the onnx module's own ModelProto.
# The onnx sources are read from ONNX_SRC and compiled in OUT; nothing is copied into this repo.
# Usage: bench/onnx-printer/build.sh ONNX_SRC [OUT]   (OUT defaults to ONNX_SRC/build-printer)
# Then: ONNX_PRINTER=OUT/onnx-printer npm run bench:big, or node dist/bench/onnx-table.js
set -eu
if [ $# -lt 1 ] || [ ! -f "$1/onnx/defs/printer.cc" ]; then
  echo "usage: $0 ONNX_SRC [OUT]  (ONNX_SRC: an onnx checkout, with onnx/defs/printer.cc)" >&2
  exit 2
fi
SRC=$(cd "$1" && pwd)
OUT=${2:-$SRC/build-printer}
HERE=$(cd "$(dirname "$0")" && pwd)
CXX=${CXX:-g++}
SOURCES="onnx/defs/printer.cc onnx/defs/parser.cc onnx/defs/tensor_proto_util.cc onnx/defs/data_type_utils.cc onnx/common/status.cc"

# build DIR PACKAGE EXTRA_FLAGS: onnx-ml.proto (onnx's Python package is built with ONNX_ML=1)
# compiled with its package set to PACKAGE, then the printer's sources, into DIR/*.o.
build() {
  dir=$1 package=$2 extra=$3
  mkdir -p "$dir/$package" "$dir/onnx"
  sed "s/^package onnx;/package $package;/" "$SRC/onnx/onnx-ml.proto" > "$dir/$package/onnx-ml.proto"
  protoc --proto_path="$dir" --cpp_out="$dir" "$dir/$package/onnx-ml.proto"
  [ "$package" = onnx ] || echo "#include \"$package/onnx-ml.pb.h\"" > "$dir/onnx/onnx-ml.pb.h"
  flags="-std=c++17 -O2 -DNDEBUG -DONNX_ML=1 -DONNX_NAMESPACE=$package -I$dir -I$SRC $extra"
  for f in $SOURCES; do
    nice $CXX $flags -c "$SRC/$f" -o "$dir/$(basename "$f" .cc).o"
  done
  nice $CXX $flags -c "$dir/$package/onnx-ml.pb.cc" -o "$dir/onnx-ml.pb.o"
}

build "$OUT" onnx ""
nice $CXX -std=c++17 -O2 -DNDEBUG -DONNX_ML=1 -DONNX_NAMESPACE=onnx -I"$OUT" -I"$SRC" -c "$HERE/driver.cc" -o "$OUT/driver.o"
$CXX -o "$OUT/onnx-printer" "$OUT"/*.o -lprotobuf -lpthread

build "$OUT/lib" onnxbench -fPIC
nice $CXX -std=c++17 -O2 -DNDEBUG -DONNX_ML=1 -DONNX_NAMESPACE=onnxbench -I"$OUT/lib" -I"$SRC" -fPIC -c "$HERE/printer-lib.cc" -o "$OUT/lib/printer-lib.o"
$CXX -shared -o "$OUT/lib/libonnx-bench-printer.so" "$OUT"/lib/*.o -lprotobuf -lpthread
echo "$OUT/onnx-printer"
echo "$OUT/lib/libonnx-bench-printer.so"
