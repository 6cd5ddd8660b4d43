// Two tensors compared as a summary (how many elements differ, by how much), never element by
// element: a changed weight is one line of a report, not thousands of numbers.
import { dataTypeInfo, TensorProto_DataLocation, type TensorProto } from "../../../proto/src/index.js";
import { OnnxtxtError } from "../io/errors.js";
import { tensorFromProto } from "../interp/tensor-proto.js";
import type { TensorData } from "../interp/value.js";
import type { TensorDifference } from "./types.js";

export interface Tolerance {
  readonly rtol: number;
  readonly atol: number;
}

/** How tensors are compared: the tolerance, whether values count, and how each side's external data is read. */
export interface TensorRules extends Tolerance {
  readonly ignoreWeights: boolean;
  /** The tensor with its external data in raw_data; throws (an OnnxtxtError) when it cannot be read. */
  readonly loadA?: (t: TensorProto) => TensorProto;
  readonly loadB?: (t: TensorProto) => TensorProto;
  /** Hears why external data was compared by reference only. */
  readonly note: (message: string) => void;
}

export function tensorTypeText(t: TensorProto): string {
  const elem = dataTypeInfo(t.dataType)?.name ?? `type${t.dataType}`;
  return t.dims.length === 0 ? elem : `${elem}[${t.dims.join(", ")}]`;
}

/** What differs between two tensors: `undefined` when nothing does; else a line and, for data, the summary. */
export interface TensorComparison {
  readonly line: string;
  readonly difference?: TensorDifference;
}

function external(t: TensorProto): boolean {
  return t.dataLocation === TensorProto_DataLocation.EXTERNAL;
}

function externalText(t: TensorProto): string {
  return t.externalData.map((e) => `${e.key}=${e.value}`).join(", ");
}

/** The tensor with its data in memory, when it is external and its side can read it. */
function loaded(t: TensorProto, load: ((t: TensorProto) => TensorProto) | undefined, side: string, note: (m: string) => void): TensorProto {
  if (!external(t) || !load) return t;
  try {
    return load(t);
  } catch (e) {
    if (!(e instanceof OnnxtxtError)) throw e;
    note(`${side}: external data of tensor '${t.name}' not read (${e.message}); compared by its reference`);
    return t;
  }
}

export function compareTensors(ta0: TensorProto, tb0: TensorProto, rules: TensorRules): TensorComparison | undefined {
  const ta = tensorTypeText(ta0);
  const tb = tensorTypeText(tb0);
  if (ta !== tb) return { line: `${ta} -> ${tb}` };
  if (rules.ignoreWeights) return undefined;
  let a = loaded(ta0, rules.loadA, "A", rules.note);
  let b = loaded(tb0, rules.loadB, "B", rules.note);
  // one side's data unread: both compared by what the models say
  if (external(a) !== external(b) && (external(ta0) || external(tb0))) [a, b] = [ta0, tb0];
  if (external(a) || external(b)) {
    // data that was not brought into memory: its reference is what can be compared
    const ea = external(a) ? externalText(a) : "in the model";
    const eb = external(b) ? externalText(b) : "in the model";
    return ea === eb ? undefined : { line: `${ta}, external data ${ea} -> ${eb}` };
  }
  let da: TensorData;
  let db: TensorData;
  try {
    da = tensorFromProto(a).data;
    db = tensorFromProto(b).data;
  } catch (e) {
    if (!(e instanceof OnnxtxtError)) throw e;
    return sameBytes(a, b) ? undefined : { line: `${ta}, data differs (${e.message})` };
  }
  const difference = compareData(da, db, ta, rules);
  if (difference.differing === 0) return undefined;
  return { line: `${ta}: ${differenceText(difference)}`, difference };
}

export function differenceText(d: TensorDifference): string {
  const tolerance = d.rtol > 0 || d.atol > 0 ? ` (rtol ${d.rtol}, atol ${d.atol})` : "";
  const max = Number.isNaN(d.maxAbsDiff) ? "" : `, max abs diff ${fmt(d.maxAbsDiff)}, max rel diff ${fmt(d.maxRelDiff)}`;
  return `${d.differing} of ${d.elements} elements differ${tolerance}${max}`;
}

function fmt(x: number): string {
  return Number.isFinite(x) ? Number(x.toPrecision(6)).toString() : String(x);
}

function sameBytes(a: TensorProto, b: TensorProto): boolean {
  const eq = (x: Uint8Array, y: Uint8Array) => x.length === y.length && x.every((v, i) => v === y[i]);
  const list = <T>(x: readonly T[], y: readonly T[]) => x.length === y.length && x.every((v, i) => Object.is(v, y[i]));
  return (
    eq(a.rawData, b.rawData) &&
    list(a.floatData, b.floatData) &&
    list(a.int32Data, b.int32Data) &&
    list(a.int64Data, b.int64Data) &&
    list(a.doubleData, b.doubleData) &&
    list(a.uint64Data, b.uint64Data) &&
    a.stringData.length === b.stringData.length &&
    a.stringData.every((s, i) => eq(s, b.stringData[i]!))
  );
}

/**
 * Element-wise, as numpy.isclose(a, b, rtol, atol, equal_nan=True) decides: an element differs
 * when |a - b| > atol + rtol * |b|. The relative difference is |a - b| / |b| over elements with
 * b != 0 (B is the reference). NaN against a number differs but adds nothing to the maxima.
 */
function compareData(a: TensorData, b: TensorData, type: string, tol: Tolerance): TensorDifference {
  let differing = 0;
  let maxAbs = 0;
  let maxRel = 0;
  let first = -1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (typeof x === "string" || typeof y === "string") {
      if (x !== y) {
        differing++;
        if (first < 0) first = i;
      }
      continue;
    }
    const fx = Number(x);
    const fy = Number(y);
    if (fx === fy || (Number.isNaN(fx) && Number.isNaN(fy))) continue;
    const abs = Math.abs(fx - fy);
    if (Number.isNaN(abs)) {
      differing++;
      if (first < 0) first = i;
      continue;
    }
    if (abs <= tol.atol + tol.rtol * Math.abs(fy)) continue;
    differing++;
    if (first < 0) first = i;
    if (abs > maxAbs) maxAbs = abs;
    if (fy !== 0 && abs / Math.abs(fy) > maxRel) maxRel = abs / Math.abs(fy);
  }
  differing += Math.abs(a.length - b.length);
  return {
    type,
    elements: b.length,
    differing,
    maxAbsDiff: maxAbs,
    maxRelDiff: maxRel,
    ...(first >= 0 && { firstIndex: first }),
    rtol: tol.rtol,
    atol: tol.atol,
  };
}
