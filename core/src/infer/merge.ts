// Combining a declared type with an inferred one: the result keeps what either knows, and a
// contradiction (different element types, ranks or known dimensions) is reported.
import { dataTypeInfo } from "../../../proto/src/index.js";
import { dimsConflict, mergeDim } from "./dims.js";
import { formatType, type Dim, type ValueType } from "./types.js";

interface Merged {
  readonly type: ValueType;
  /** Why the two cannot both be right, in plain words. */
  readonly conflict?: string;
}

function elemName(e: number): string {
  return dataTypeInfo(e)?.name ?? String(e);
}

export function mergeTypes(declared: ValueType | undefined, inferred: ValueType | undefined): Merged | undefined {
  if (!declared) return inferred && { type: inferred };
  if (!inferred) return { type: declared };
  const clash = (why: string): Merged => ({ type: declared, conflict: `declared as ${formatType(declared)} but ${why}` });
  const dk = declared.kind === "sparse" ? "tensor" : declared.kind;
  const ik = inferred.kind === "sparse" ? "tensor" : inferred.kind;
  if (dk !== ik) return clash(`the operator produces ${formatType(inferred)}`);
  if ((declared.kind === "tensor" || declared.kind === "sparse") && (inferred.kind === "tensor" || inferred.kind === "sparse")) {
    if (declared.elem && inferred.elem && declared.elem !== inferred.elem) {
      return clash(`the operator produces ${elemName(inferred.elem)} elements`);
    }
    const elem = declared.elem || inferred.elem;
    if (!declared.shape || !inferred.shape)
      return { type: { kind: declared.kind, elem, ...((declared.shape ?? inferred.shape) ? { shape: declared.shape ?? inferred.shape } : {}) } };
    if (declared.shape.length !== inferred.shape.length) {
      return clash(`the operator produces rank ${inferred.shape.length} (${formatType(inferred)})`);
    }
    const shape: Dim[] = [];
    for (let i = 0; i < declared.shape.length; i++) {
      const d = declared.shape[i];
      const n = inferred.shape[i];
      if (dimsConflict(d, n)) return clash(`the operator produces ${formatType(inferred)} (dimension ${i} is ${n}, not ${d})`);
      shape.push(typeof d === "number" || typeof n === "number" ? mergeDim(d, n) : (d ?? n));
    }
    return { type: { kind: declared.kind, elem, shape } };
  }
  if (declared.kind === "sequence" && inferred.kind === "sequence") {
    const inner = mergeTypes(declared.elem, inferred.elem);
    return inner?.conflict ? clash(`the operator produces ${formatType(inferred)}`) : { type: { kind: "sequence", elem: inner?.type } };
  }
  if (declared.kind === "optional" && inferred.kind === "optional") {
    const inner = mergeTypes(declared.elem, inferred.elem);
    return inner?.conflict ? clash(`the operator produces ${formatType(inferred)}`) : { type: { kind: "optional", elem: inner?.type } };
  }
  return { type: declared };
}
