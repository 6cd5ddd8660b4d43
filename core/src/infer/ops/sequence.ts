// Sequence and optional operators: their types wrap or unwrap the element type.
import { TensorProto_DataType as DT } from "../../../../proto/src/index.js";
import type { OpRule } from "../context.js";
import { normAxis } from "../dims.js";
import { formatType, fromTypeProto, isTensor, tensor, type Dim, type ValueType } from "../types.js";

function elemOfSeq(t: ValueType | undefined): ValueType | undefined {
  return t?.kind === "sequence" ? t.elem : undefined;
}

function shapeless(t: ValueType | undefined): ValueType | undefined {
  return isTensor(t)
    ? tensor(
        t.elem,
        t.shape?.map(() => undefined),
      )
    : t;
}

export const SEQUENCE_RULES: Record<string, OpRule> = {
  SequenceEmpty: (c) => c.setType(0, { kind: "sequence", elem: tensor(c.int("dtype", DT.FLOAT)!) }),
  SequenceConstruct: (c) => {
    const first = c.inputs[0];
    const same = c.inputs.every((t) => JSON.stringify(t) === JSON.stringify(first));
    c.setType(0, { kind: "sequence", elem: same ? first : shapeless(first) });
  },
  SequenceInsert: (c) => {
    const seq = elemOfSeq(c.inputs[0]);
    const t = c.inputs[1];
    if (isTensor(seq) && isTensor(t) && seq.elem && t.elem && seq.elem !== t.elem) {
      c.report(
        "type-mismatch",
        `SequenceInsert needs a tensor of the sequence's element type, but '${c.node.input[0]}' is ${formatType(c.inputs[0])} and '${c.node.input[1]}' is ${formatType(t)}`,
        { input: 1 },
      );
      return;
    }
    c.setType(0, { kind: "sequence", elem: seq && JSON.stringify(seq) === JSON.stringify(t) ? seq : isTensor(t) ? tensor(t.elem) : seq });
  },
  SequenceErase: (c) => c.setType(0, c.inputs[0]),
  SequenceAt: (c) => c.setType(0, elemOfSeq(c.inputs[0])),
  SequenceLength: (c) => c.set(0, [], DT.INT64),
  SplitToSequence: (c) => {
    const t = c.tensorIn(0);
    if (!t) return;
    const axis = t.shape ? normAxis(c.int("axis", 0)!, t.shape.length) : undefined;
    if (!t.shape || axis === undefined) return c.setType(0, { kind: "sequence", elem: tensor(t.elem) });
    let shape: Dim[];
    if (c.has(1)) shape = t.shape.map((d, i) => (i === axis ? undefined : d));
    else if (c.int("keepdims", 1) === 1) shape = t.shape.map((d, i) => (i === axis ? 1 : d));
    else shape = t.shape.filter((_, i) => i !== axis);
    c.setType(0, { kind: "sequence", elem: tensor(t.elem, shape) });
  },
  ConcatFromSequence: (c) => {
    const e = elemOfSeq(c.inputs[0]);
    if (!isTensor(e)) return;
    if (!e.shape) return c.set(0, undefined, e.elem);
    const newAxis = c.int("new_axis", 0) === 1;
    const rank = e.shape.length + (newAxis ? 1 : 0);
    const axis = normAxis(c.int("axis")!, rank);
    if (axis === undefined) return c.set(0, undefined, e.elem);
    const shape: Dim[] = [...e.shape];
    if (newAxis) shape.splice(axis, 0, undefined);
    else shape[axis] = undefined;
    c.set(0, shape, e.elem);
  },
  SequenceMap: (c) => {
    const bodyInputs = c.inputs.map((t) => (t?.kind === "sequence" ? t.elem : t));
    const out = c.subgraph("body", bodyInputs) ?? [];
    c.node.output.forEach((_, i) => c.setType(i, { kind: "sequence", elem: shapeless(out[i]) }));
  },
  Optional: (c) => {
    const declared = c.attr("type")?.tp;
    c.setType(0, { kind: "optional", elem: c.inputs[0] ?? fromTypeProto(declared) });
  },
  OptionalHasElement: (c) => c.set(0, [], DT.BOOL),
  OptionalGetElement: (c) => {
    const t = c.inputs[0];
    c.setType(0, t?.kind === "optional" ? t.elem : t);
  },
};
