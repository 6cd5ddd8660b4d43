#!/bin/sh
# Checks a build of the driver against onnx 1.23.1's own printer: prints every node test's model
# (test/data/onnx/node-tests) and compares the text byte for byte with what onnx 1.23.1's
# onnx.printer.to_text wrote for it (test/data/onnx/printed). Lists the tests that differ.
# Usage: bench/onnx-printer/check-corpus.sh PATH/onnx-printer
set -eu
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 PATH/onnx-printer  (built by bench/onnx-printer/build.sh)" >&2
  exit 2
fi
PRINTER=$1
DATA=$(cd "$(dirname "$0")/../../test/data/onnx" && pwd)
same=0
differ=0
for dir in "$DATA"/node-tests/test_*/; do
  name=$(basename "$dir")
  if "$PRINTER" "$dir/model.onnx" 2>/dev/null | cmp -s - "$DATA/printed/$name.onnxtxt"; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    echo "differs: $name"
  fi
done
echo "$same of $((same + differ)) node tests printed exactly as onnx 1.23.1 printed them"
[ "$differ" -eq 0 ]
