// Seven ways to break a valid model, each applied at the first place in the main graph where it
// applies, so the same model always gives the same mutant (the recorded onnx verdicts depend on
// it). A mutation that has no place to apply gives undefined.
import { clone } from "@bufbuild/protobuf";
import { ModelProtoSchema, TensorProto_DataType as DT, type ModelProto, type NodeProto } from "../../../proto/src/index.js";
import { canonicalDomain, getSchema, getSchemaVersions, type OpSchema } from "../../../core/src/schema/index.js";

export const MUTATION_KINDS = [
  "drop-required-attribute",
  "extra-input",
  "undefined-input",
  "duplicate-output",
  "wrong-input-type",
  "op-below-first-opset",
  "opset-zero",
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

type Mutate = (m: ModelProto) => boolean;

function opsetOf(m: ModelProto, domain: string): number | undefined {
  const o = m.opsetImport.find((x) => canonicalDomain(x.domain) === canonicalDomain(domain));
  return o ? Number(o.version) : undefined;
}

function schemaOf(m: ModelProto, n: NodeProto): OpSchema | undefined {
  const v = opsetOf(m, n.domain);
  return v === undefined ? undefined : getSchema(n.domain, n.opType, v);
}

/** A name the main graph defines before any node runs: an input or an initializer. */
function someDefinedName(m: ModelProto): string | undefined {
  const g = m.graph!;
  return g.input[0]?.name ?? g.initializer[0]?.name;
}

const MUTATIONS: Record<MutationKind, Mutate> = {
  "drop-required-attribute": (m) => {
    for (const n of m.graph!.node) {
      const s = schemaOf(m, n);
      const i = s ? n.attribute.findIndex((a) => s.attributes.get(a.name)?.required) : -1;
      if (i >= 0) {
        n.attribute.splice(i, 1);
        return true;
      }
    }
    return false;
  },
  "extra-input": (m) => {
    for (const n of m.graph!.node) {
      const s = schemaOf(m, n);
      if (!s || s.maxInput >= 2 ** 31 - 1) continue;
      const name = n.input.find((x) => x !== "") ?? someDefinedName(m);
      if (name === undefined) continue;
      while (n.input.length <= s.maxInput) n.input.push(name);
      return true;
    }
    return false;
  },
  "undefined-input": (m) => {
    for (const n of m.graph!.node) {
      const i = n.input.findIndex((x) => x !== "");
      if (i >= 0) {
        n.input[i] = "never_defined_value";
        return true;
      }
    }
    return false;
  },
  "duplicate-output": (m) => {
    const nodes = m.graph!.node;
    const first = nodes[0]?.output.find((o) => o !== "");
    if (nodes.length >= 2 && first !== undefined && nodes[1]!.output.length > 0) {
      nodes[1]!.output[0] = first;
      return true;
    }
    const input = m.graph!.input[0]?.name;
    if (nodes[0] && nodes[0].output.length > 0 && input !== undefined) {
      nodes[0].output[0] = input;
      return true;
    }
    return false;
  },
  "wrong-input-type": (m) => {
    const g = m.graph!;
    const initializers = new Set(g.initializer.map((t) => t.name));
    for (const vi of g.input) {
      const t = vi.type?.value;
      if (initializers.has(vi.name) || t?.case !== "tensorType") continue;
      t.value.elemType = t.value.elemType === DT.STRING ? DT.FLOAT : DT.STRING;
      return true;
    }
    return false;
  },
  "op-below-first-opset": (m) => {
    for (const n of m.graph!.node) {
      if (canonicalDomain(n.domain) !== "" || !schemaOf(m, n)) continue;
      const first = getSchemaVersions("", n.opType)[0]!.sinceVersion;
      if (first < 2) continue;
      for (const o of m.opsetImport) if (canonicalDomain(o.domain) === "") o.version = BigInt(first - 1);
      return true;
    }
    return false;
  },
  "opset-zero": (m) => {
    const ai = m.opsetImport.filter((o) => canonicalDomain(o.domain) === "");
    for (const o of ai) o.version = 0n;
    return ai.length > 0;
  },
};

/** A mutated copy of `model`, or undefined when the mutation has no place to apply. */
export function mutate(model: ModelProto, kind: MutationKind): ModelProto | undefined {
  if (!model.graph) return undefined;
  const copy = clone(ModelProtoSchema, model);
  return MUTATIONS[kind](copy) ? copy : undefined;
}
