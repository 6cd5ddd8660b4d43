// onnx's C++ printer as a shared library with a C interface, for Python's ctypes
// (bench/onnx-printer/to_text.py): what onnx.printer.to_text does in onnx releases that have it
// (the model's bytes parsed in C++, printed to a string, the string handed back to Python),
// for onnx builds that do not (Debian's onnx 1.12). Built by build.sh with the proto package
// renamed, so that it can live in one process with the onnx module's own copy.

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

#include "onnx/defs/printer.h"
#include "onnx/proto_utils.h"

extern "C" {

/** The text of the ModelProto in `bytes`, to be freed by onnx_bench_free; NULL if not a model. */
char* onnx_bench_print(const char* bytes, size_t size) {
  ONNX_NAMESPACE::ModelProto model;
  if (!ONNX_NAMESPACE::ParseProtoFromBytes(&model, bytes, size)) return nullptr;
  std::ostringstream out;
  out << model;
  const std::string text = out.str();
  char* result = static_cast<char*>(std::malloc(text.size() + 1));
  if (result != nullptr) std::memcpy(result, text.c_str(), text.size() + 1);
  return result;
}

void onnx_bench_free(char* text) { std::free(text); }

}  // extern "C"
