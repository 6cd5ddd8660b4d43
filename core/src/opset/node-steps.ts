// Moves one node from one opset version to another, one schema step at a time: each step's
// adapter may replace the node by several, and each of those continues from that step.
import { clone } from "@bufbuild/protobuf";
import { NodeProtoSchema, type NodeProto } from "../../../proto/src/index.js";
import { findSchema, getSchemaVersions, type OpSchema } from "../schema/index.js";
import type { StepContext } from "./context.js";
import { specAdapter, type StepSpec } from "./spec.js";
import { describeChange, stepKey, typesOnly } from "./steps.js";
import { REPLACED_BELOW_FIRST, stepSpecs } from "./table/index.js";
import { typeProblem } from "./type-check.js";
import { inlineBody } from "./adapters/function-body.js";

export interface NodeEnv {
  /** Makes the context of one step (types, constants, fresh names). */
  context(older: number, newer: number, up: boolean, at: number): StepContext;
}

export type NodeResult = { readonly nodes: NodeProto[] } | { readonly refused: string; readonly step: readonly [number, number] };

interface Step {
  readonly nodes: readonly NodeProto[];
  readonly at: number;
}
type StepResult = Step | "done" | { readonly refused: string; readonly step: readonly [number, number] };

/** The spec of the step up to `newer` (a types-only step needs no row). */
function specFor(domain: string, op: string, older: OpSchema, newer: OpSchema): StepSpec | undefined {
  return stepSpecs().get(stepKey(domain, op, newer.sinceVersion)) ?? (typesOnly(older, newer) ? {} : undefined);
}

function checked(nodes: readonly NodeProto[], domain: string, op: string, at: number, from: OpSchema, ctx: StepContext): string | undefined {
  for (const n of nodes) {
    if (n.opType !== op || n.domain !== domain) continue;
    const s = findSchema(domain, op, at);
    if (s && !s.deprecated) {
      const problem = typeProblem(n, s, from, (name) => ctx.type(name));
      if (problem) return problem;
    }
  }
  return undefined;
}

function stepOnce(node: NodeProto, domain: string, at: number, target: number, env: NodeEnv): StepResult {
  const op = node.opType;
  const versions = getSchemaVersions(domain, op);
  const cur = findSchema(domain, op, at);
  if (versions.length === 0) return { refused: `unknown operator ${domain ? `${domain}.` : ""}${op}`, step: [at, target] };
  // A deprecated version that a later one replaces (GroupNormalization-18) is still a definition;
  // a deprecated last version marks the op removed.
  if (!cur || (cur.deprecated && cur === versions[versions.length - 1])) return { refused: `${op} does not exist at opset ${at}`, step: [at, target] };
  if (target > at) {
    const next = versions.find((v) => v.sinceVersion > cur.sinceVersion && v.sinceVersion <= target);
    if (!next) return "done";
    const step = [cur.sinceVersion, next.sinceVersion] as const;
    const spec = specFor(domain, op, cur, next);
    if (!spec) return { refused: `no adapter for ${op} ${step[0]} -> ${step[1]} (${describeChange(cur, next)})`, step };
    const ctx = env.context(cur.sinceVersion, next.sinceVersion, true, next.sinceVersion);
    const r = specAdapter(spec, true, next, cur)(node, ctx);
    if ("refused" in r) return { refused: `${op} ${step[0]} -> ${step[1]}: ${r.refused}`, step };
    const problem = checked(r.nodes, node.domain, op, next.sinceVersion, cur, ctx);
    if (problem) return { refused: `${op} ${step[0]} -> ${step[1]}: ${problem}`, step };
    return { nodes: r.nodes, at: next.sinceVersion };
  }
  if (cur.sinceVersion <= target) return "done";
  const prev = versions[versions.indexOf(cur) - 1];
  const at2 = cur.sinceVersion - 1;
  if (!prev) {
    const step = [at2, cur.sinceVersion] as const;
    const repl = REPLACED_BELOW_FIRST.get(stepKey(domain, op, cur.sinceVersion));
    const ctx = env.context(at2, cur.sinceVersion, false, at2);
    if (!repl) {
      const inlined = inlineBody(node, domain, cur.sinceVersion, ctx);
      if (!inlined) return { refused: `${op} first appears at opset ${cur.sinceVersion}; no older operator expresses it`, step };
      if ("refused" in inlined) return { refused: inlined.refused, step };
      // The body's nodes are written for its own opset; from there they go down as any node.
      return { nodes: inlined.nodes, at: inlined.at ?? at2 };
    }
    const r = repl.adapter(node, ctx);
    if ("refused" in r) return { refused: `${op} -> ${repl.op}: ${r.refused}`, step };
    const problem = checked(r.nodes, node.domain, repl.op, at2, cur, ctx);
    if (problem) return { refused: `${op} -> ${repl.op}: ${problem}`, step };
    return { nodes: r.nodes, at: r.at ?? at2 };
  }
  const step = [prev.sinceVersion, cur.sinceVersion] as const;
  const spec = specFor(domain, op, prev, cur);
  if (!spec) return { refused: `no adapter for ${op} ${step[1]} -> ${step[0]} (${describeChange(prev, cur)})`, step };
  const ctx = env.context(prev.sinceVersion, cur.sinceVersion, false, at2);
  const r = specAdapter(spec, false, cur, prev)(node, ctx);
  if ("refused" in r) return { refused: `${op} ${step[1]} -> ${step[0]}: ${r.refused}`, step };
  const problem = checked(r.nodes, node.domain, op, at2, cur, ctx);
  if (problem) return { refused: `${op} ${step[1]} -> ${step[0]}: ${problem}`, step };
  return { nodes: r.nodes, at: at2 };
}

function walk(node: NodeProto, domain: string, at: number, target: number, env: NodeEnv, depth: number): NodeResult {
  const r = stepOnce(node, domain, at, target, env);
  if (r === "done") return { nodes: [node] };
  if ("refused" in r) return r;
  if (depth > 200) return { refused: "conversion did not settle", step: [at, target] };
  const done: (readonly NodeProto[])[] = new Array(r.nodes.length);
  const own = new Set(node.output);
  // Constants an adapter added go last: the step after may have made their value an
  // attribute, and an unread one is dropped rather than converted (int64 Constants need opset 9).
  const isHelperConstant = (n: NodeProto): boolean => n.opType === "Constant" && n.output.every((o) => !own.has(o));
  for (const pass of [false, true]) {
    const read = new Set(done.flatMap((d) => d ?? []).flatMap((n) => n.input));
    for (let i = 0; i < r.nodes.length; i++) {
      const n = r.nodes[i]!;
      if (isHelperConstant(n) !== pass) continue;
      if (pass && n.output.every((o) => !read.has(o))) {
        done[i] = [];
        continue;
      }
      // Nodes an adapter adds continue from the step's version too (they are of the same domain).
      if ((n.domain === "ai.onnx" ? "" : n.domain) !== domain) {
        done[i] = [n];
        continue;
      }
      const sub = walk(n, domain, r.at, target, env, depth + 1);
      if ("refused" in sub) return sub;
      done[i] = sub.nodes;
    }
  }
  return { nodes: done.flat() };
}

/** The nodes that express `node` (of `domain`, at opset `from`) at opset `to`, or why not. */
export function convertNode(node: NodeProto, domain: string, from: number, to: number, env: NodeEnv): NodeResult {
  return walk(clone(NodeProtoSchema, node), domain, from, to, env, 0);
}
