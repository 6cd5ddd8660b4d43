// `check`'s look at external data (the checker itself does no IO): each external tensor's file
// must exist beside the model under onnx's rules, and hold the tensor's bytes.
import * as fs from "node:fs";
import { TensorProto_DataType as DT, type ModelProto, type TensorProto } from "../../proto/src/index.js";
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { externalRef, isExternal, OnnxtxtError, resolveExternalPath } from "../../core/src/io/index.js";
import { Reporter } from "../../core/src/infer/location.js";
import type { SourceMap } from "../../core/src/source-map.js";
import { walkModel } from "../../core/src/walk.js";
import { openChecked, rangeProblem } from "../../core/src/io/data-files.js";
import { FileError } from "../../core/src/io/files.js";

/** The diagnostic code of these problems (apart from CHECK_CODES: it needs the file system). */
const EXTERNAL_DATA_CODE = "external-data";

const ELEMENT_BYTES = new Map<number, number>([
  [DT.FLOAT, 4],
  [DT.UINT8, 1],
  [DT.INT8, 1],
  [DT.UINT16, 2],
  [DT.INT16, 2],
  [DT.INT32, 4],
  [DT.INT64, 8],
  [DT.BOOL, 1],
  [DT.FLOAT16, 2],
  [DT.DOUBLE, 8],
  [DT.UINT32, 4],
  [DT.UINT64, 8],
  [DT.COMPLEX64, 8],
  [DT.COMPLEX128, 16],
  [DT.BFLOAT16, 2],
]);

/** The bytes the tensor's data takes, for fixed-width element types. */
function expectedBytes(t: TensorProto): number | undefined {
  const size = ELEMENT_BYTES.get(t.dataType);
  if (size === undefined) return undefined;
  return t.dims.reduce((n, d) => n * Number(d), size);
}

function problemOf(t: TensorProto, baseDir: string): string | undefined {
  let ref;
  let abs;
  try {
    ref = externalRef(t);
    abs = resolveExternalPath(baseDir, ref.location);
  } catch (e) {
    if (e instanceof OnnxtxtError) return e.message;
    throw e;
  }
  let size: number;
  try {
    const opened = openChecked(abs, { within: baseDir, folderName: "the model's folder", singleLink: true });
    fs.closeSync(opened.fd);
    size = opened.size;
  } catch (e) {
    if (e instanceof FileError) return `external data '${ref.location}': ${e.message}`;
    throw e;
  }
  const range = rangeProblem(size, ref.offset, ref.length);
  if (range) return `external data '${ref.location}': ${range}`;
  const have = ref.length ?? size - ref.offset;
  const need = expectedBytes(t);
  if (need !== undefined && have !== need) return `external data '${ref.location}' holds ${have} bytes for the tensor, which needs ${need}`;
  return undefined;
}

/** One error per external tensor whose data is missing, unsafe to read or short. */
export function externalDataDiagnostics(model: ModelProto, baseDir: string, sourceMap: SourceMap | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  const reporter = new Reporter(sourceMap, out);
  walkModel(model, {
    tensor(t) {
      if (!isExternal(t)) return;
      const problem = problemOf(t, baseDir);
      if (problem) reporter.report("error", EXTERNAL_DATA_CODE, `tensor '${t.name}': ${problem}`, t, `tensor '${t.name}'`);
    },
  });
  return out;
}
