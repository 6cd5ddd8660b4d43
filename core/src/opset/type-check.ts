// Type restrictions: after a step, every input and output of the node must have a type the
// schema at the new opset accepts. An unknown type passes only where no type was lost.
import type { NodeProto } from "../../../proto/src/index.js";
import { typeString, type ValueType } from "../infer/types.js";
import type { FormalParameter, OpSchema } from "../schema/index.js";

function allowed(s: OpSchema, p: FormalParameter): ReadonlySet<string> {
  return s.typeConstraints.get(p.typeStr)?.allowedSet ?? new Set([p.typeStr]);
}

function formal(params: readonly FormalParameter[], i: number): FormalParameter | undefined {
  const last = params[params.length - 1];
  return i < params.length ? params[i] : last?.option === "variadic" ? last : undefined;
}

/** Why `node` does not fit schema `s` (judged against the version it comes from, `from`), or undefined. */
export function typeProblem(node: NodeProto, s: OpSchema, from: OpSchema | undefined, type: (name: string) => ValueType | undefined): string | undefined {
  for (const [names, params, fromParams] of [
    [node.input, s.inputs, from?.inputs],
    [node.output, s.outputs, from?.outputs],
  ] as const) {
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      const p = formal(params, i);
      if (!name || !p) continue;
      const ok = allowed(s, p);
      const t = typeString(type(name));
      if (t !== undefined) {
        if (!ok.has(t)) return `'${name}' is ${t}, which ${s.name}-${s.sinceVersion} does not accept`;
        continue;
      }
      // Unknown type: fine when every type the source version accepted is still accepted.
      const q = from && fromParams ? formal(fromParams, i) : undefined;
      const before = q && from ? allowed(from, q) : undefined;
      if (!before || [...before].some((x) => !ok.has(x))) {
        return `the type of '${name}' is unknown, and ${s.name}-${s.sinceVersion} accepts fewer types (${[...ok].join(", ")})`;
      }
    }
  }
  return undefined;
}
