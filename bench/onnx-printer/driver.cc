// Reads a binary ModelProto and writes onnx's printer text of it to stdout: the reference for
// bench/big-models.ts's print row. Built against an onnx source tree by build.sh; no onnx code is
// kept in this repository. The text goes straight from onnx's `operator<<(ostream&, ModelProto)`
// to a buffered stdout (no whole-text string as onnx.printer.to_text builds), so this is the
// printer at its cheapest in time and memory.
// Usage: onnx-printer MODEL.onnx > MODEL.txt

#include <cstdio>
#include <fstream>
#include <iostream>
#include <vector>

#include "onnx/defs/printer.h"
#include "onnx/proto_utils.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: onnx-printer MODEL.onnx > MODEL.txt\n";
    return 2;
  }
  onnx::ModelProto model;
  {
    std::ifstream in(argv[1], std::ios::binary | std::ios::ate);
    const std::streamsize size = in ? static_cast<std::streamsize>(in.tellg()) : -1;
    std::vector<char> bytes(size > 0 ? size : 0);
    if (size < 0 || !in.seekg(0).read(bytes.data(), size)) {
      std::cerr << "onnx-printer: cannot read " << argv[1] << "\n";
      return 1;
    }
    if (!onnx::ParseProtoFromBytes(&model, bytes.data(), bytes.size())) {
      std::cerr << "onnx-printer: " << argv[1] << " is not a ModelProto\n";
      return 1;
    }
  } // the file's bytes are freed before printing
  std::ios::sync_with_stdio(false);
  std::cout << model;
  std::cout.flush();
  return std::cout ? 0 : 1;
}
