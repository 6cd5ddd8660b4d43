// Runs inference over a graph in node order: binds each node's type constraints from its
// inputs, applies the operator's shape rule, merges with what the model declares, and
// recurses into subgraphs (If, Loop, Scan) and model-local functions.
import { clone } from "@bufbuild/protobuf";
import {
  AttributeProtoSchema,
  NodeProtoSchema,
  type AttributeProto,
  type FunctionProto,
  type GraphProto,
  type NodeProto,
  type TensorProto,
  type ValueInfoProto,
} from "../../../proto/src/index.js";
import { finish, NODES_PER_STEP } from "../../../grammar/src/steps.js";
import { canonicalDomain, getSchema, type FormalParameter, type OpSchema } from "../schema/index.js";
import { constOfTensor, type Const } from "./constants.js";
import { OpContext, type OpContextHost } from "./context.js";
import { ShapeError } from "./dims.js";
import { ChildWhere, describeNode, NodeWhere, opName, type Part, type Reporter, type Where } from "./location.js";
import { mergeTypes } from "./merge.js";
import { ruleFor } from "./ops/index.js";
import { formatType, fromTypeProto, fromTypeString, isTensor, tensor, typeString, type ValueType } from "./types.js";

/** Nested function calls deeper than this are not expanded (guards against recursion). */
const MAX_FUNCTION_DEPTH = 8;

export class Scope {
  readonly types = new Map<string, ValueType>();
  readonly consts = new Map<string, Const | undefined>();
  /** Initializers whose values are read only when a rule asks (most are weights, never folded). */
  readonly initializers = new Map<string, TensorProto>();
  /**
   * Node outputs whose type in `types` is not what the operator alone gave (a declaration was
   * merged in, or the operator gave nothing), with the operator's answer. Every other node
   * output's operator answer is its entry in `types`: one map update per output, not two.
   */
  readonly operatorOverrides = new Map<string, ValueType | undefined>();
  constructor(readonly parent?: Scope) {}

  type(name: string): ValueType | undefined {
    return this.types.get(name) ?? this.parent?.type(name);
  }

  const(name: string): Const | undefined {
    if (this.consts.has(name)) return this.consts.get(name);
    const t = this.initializers.get(name);
    if (t) {
      const c = constOfTensor(t);
      this.consts.set(name, c);
      return c;
    }
    return this.types.has(name) ? undefined : this.parent?.const(name);
  }
}

export interface Env {
  readonly opsets: ReadonlyMap<string, number>;
  readonly functions: ReadonlyMap<string, FunctionProto>;
  readonly reporter: Reporter;
  /** Per graph: the types of its values (declared merged with inferred), for writing value_info. */
  readonly graphTypes: Map<GraphProto, Map<string, ValueType>>;
  readonly depth: number;
  /** Nodes the checker found malformed: their outputs are left to their declarations (what they would give is a guess). */
  readonly broken?: ReadonlySet<NodeProto>;
}

/** Model-local functions are identified by domain, name and overload. */
export function functionKey(domain: string, name: string, overload = ""): string {
  return `${canonicalDomain(domain)}::${name}::${overload}`;
}

interface GraphResult {
  readonly scope: Scope;
  readonly outputs: (ValueType | undefined)[];
}

/** What the operators alone gave each node output of `g` (declarations ignored), in node order. */
export function operatorTypes(g: GraphProto, scope: Scope): Map<string, ValueType> {
  const out = new Map<string, ValueType>();
  for (const node of g.node)
    for (const name of node.output) {
      if (name === "") continue;
      const t = scope.operatorOverrides.has(name) ? scope.operatorOverrides.get(name) : scope.types.get(name);
      if (t) out.set(name, t);
    }
  return out;
}

function declaredTypes(infos: readonly ValueInfoProto[], into: Map<string, ValueInfoProto>): void {
  for (const vi of infos) if (vi.type && !into.has(vi.name)) into.set(vi.name, vi);
}

export function inferGraph(g: GraphProto, env: Env, parent: Scope | undefined, path: Where, inputTypes?: readonly (ValueType | undefined)[]): GraphResult {
  return finish(inferGraphSteps(g, env, parent, path, inputTypes));
}

/** inferGraph in steps: it pauses every NODES_PER_STEP nodes of `g` (a language server answers requests between). */
export function* inferGraphSteps(
  g: GraphProto,
  env: Env,
  parent: Scope | undefined,
  path: Where,
  inputTypes?: readonly (ValueType | undefined)[],
): Generator<undefined, GraphResult, void> {
  const scope = new Scope(parent);
  g.input.forEach((vi, i) => {
    const given = inputTypes?.[i];
    const declared = fromTypeProto(vi.type);
    const merged = mergeTypes(declared, given);
    // A body (Loop, Scan, SequenceMap) declared for other element types than the op passes in.
    // Shapes may legitimately differ (carried values grow), element types may not.
    if (merged?.conflict && given && declared && kindOrElemDiffer(declared, given)) {
      env.reporter.report(
        "error",
        "declared-type-mismatch",
        `subgraph input '${vi.name}' is declared as ${formatType(declared)} but receives ${formatType(given)}`,
        vi,
        `${path} > input '${vi.name}'`,
        "type",
      );
    }
    if (merged) scope.types.set(vi.name, merged.conflict ? given! : merged.type);
  });
  for (const t of g.initializer) {
    if (!scope.types.has(t.name)) scope.types.set(t.name, tensor(t.dataType, t.dims.map(Number)));
    scope.initializers.set(t.name, t);
  }
  for (const s of g.sparseInitializer) {
    const name = s.values?.name;
    if (name && !scope.types.has(name)) scope.types.set(name, { kind: "sparse", elem: s.values?.dataType ?? 0, shape: s.dims.map(Number) });
  }
  const declared = new Map<string, ValueInfoProto>();
  declaredTypes(g.output, declared);
  declaredTypes(g.valueInfo, declared);
  const nodes = g.node;
  for (let i = 0; i < nodes.length; i++) {
    inferNode(nodes[i]!, scope, env, new NodeWhere(path, nodes[i]!, i), declared);
    if (i % NODES_PER_STEP === NODES_PER_STEP - 1) yield;
  }
  env.graphTypes.set(g, scope.types);
  const outputs = g.output.map((vi) => scope.types.get(vi.name) ?? scope.type(vi.name) ?? fromTypeProto(vi.type));
  return { scope, outputs };
}

function kindOrElemDiffer(a: ValueType, b: ValueType): boolean {
  if (isTensor(a) && isTensor(b)) return a.elem !== 0 && b.elem !== 0 && a.elem !== b.elem;
  return a.kind !== b.kind || typeString(a) !== typeString(b);
}

function formalFor(params: readonly FormalParameter[], i: number): FormalParameter | undefined {
  if (i < params.length) return params[i];
  const last = params[params.length - 1];
  return last?.option === "variadic" ? last : undefined;
}

/**
 * Binds type parameters from the actual inputs; reports clashes and disallowed types. The
 * result lists the inputs that bound a parameter first (the parameter is the input's formal
 * type): a list of indices, made only when something is bound, as this runs for every node and
 * an op has one to three parameters.
 */
function bindConstraints(schema: OpSchema, inputs: readonly (ValueType | undefined)[], node: NodeProto, env: Env, where: Where): number[] | undefined {
  let bound: number[] | undefined;
  for (let i = 0; i < inputs.length; i++) {
    const t = inputs[i];
    if (!t || node.input[i] === "") continue;
    const formal = formalFor(schema.inputs, i);
    if (!formal) continue;
    const str = typeString(t);
    if (str === undefined) continue;
    const constraint = schema.typeConstraints.get(formal.typeStr);
    if (!constraint) {
      // A fixed type (Reshape's shape is tensor(int64)) rather than a type parameter.
      if (str !== formal.typeStr && fromTypeString(formal.typeStr)) {
        reportAt(
          env,
          node,
          where,
          "type-not-allowed",
          `input ${i} ('${formal.name}') of ${opName(node)} must be ${summarize([formal.typeStr])}, but '${node.input[i]}' is ${formatType(t)}`,
          { input: i },
        );
      }
      continue;
    }
    if (!constraint.allowedSet.has(str)) {
      reportAt(
        env,
        node,
        where,
        "type-not-allowed",
        `input ${i} ('${node.input[i]}') of ${opName(node)} is ${formatType(t)}, but ${formal.typeStr} allows only ${summarize(constraint.allowed)}`,
        { input: i },
      );
      continue;
    }
    if (formal.option === "variadic" && !formal.homogeneous) continue;
    const from = bindingOf(schema, bound, formal.typeStr);
    if (from === undefined) {
      if (bound) bound.push(i);
      else bound = [i];
    } else if (typeString(inputs[from]) !== str) {
      reportAt(
        env,
        node,
        where,
        "type-mismatch",
        `${opName(node)} needs inputs ${from} and ${i} to have the same type ${formal.typeStr}, but '${node.input[from]}' is ${formatType(inputs[from])} and '${node.input[i]}' is ${formatType(t)}`,
        { input: i },
      );
    }
  }
  return bound;
}

/** The input that bound type parameter `param`, if one did. */
function bindingOf(schema: OpSchema, bound: readonly number[] | undefined, param: string): number | undefined {
  if (bound) for (let k = 0; k < bound.length; k++) if (formalFor(schema.inputs, bound[k]!)!.typeStr === param) return bound[k];
  return undefined;
}

/** Outputs whose type comes from an attribute (Constant's value, Cast's to) obey the schema too. */
function checkOutputConstraints(schema: OpSchema, outputs: readonly (ValueType | undefined)[], node: NodeProto, env: Env, where: Where): void {
  for (let j = 0; j < outputs.length; j++) {
    const t = outputs[j];
    const formal = formalFor(schema.outputs, j);
    const str = typeString(t);
    if (!formal || str === undefined) continue;
    const allowed = schema.typeConstraints.get(formal.typeStr)?.allowed ?? (fromTypeString(formal.typeStr) ? [formal.typeStr] : undefined);
    if (allowed && !allowed.includes(str)) {
      reportAt(
        env,
        node,
        where,
        "type-not-allowed",
        `output ${j} ('${node.output[j]}') of ${opName(node)} would be ${formatType(t)}, but ${formal.typeStr} allows only ${summarize(allowed)}`,
        { output: j },
      );
    }
  }
}

function summarize(allowed: readonly string[]): string {
  const names = allowed.map((a) => a.replace(/^tensor\((.*)\)$/, "$1"));
  return names.length > 8 ? `${names.slice(0, 8).join(", ")}, ...` : names.join(", ");
}

/** Output types the constraints alone determine (element types; shapes come from rules). */
function outputsFromConstraints(
  schema: OpSchema,
  count: number,
  inputs: readonly (ValueType | undefined)[],
  bound: readonly number[] | undefined,
): (ValueType | undefined)[] {
  // Sized up front rather than pushed: a pushed array's first growth makes room for 17.
  const out = new Array<ValueType | undefined>(count);
  for (let j = 0; j < count; j++) {
    const formal = formalFor(schema.outputs, j);
    if (!formal) {
      out[j] = undefined;
      continue;
    }
    const from = bindingOf(schema, bound, formal.typeStr);
    const b = from === undefined ? undefined : inputs[from];
    if (b) {
      out[j] = isTensor(b) ? tensor(b.elem) : b;
      continue;
    }
    const c = schema.typeConstraints.get(formal.typeStr);
    out[j] = c ? (c.allowed.length === 1 ? fromTypeString(c.allowed[0]!) : undefined) : fromTypeString(formal.typeStr);
  }
  return out;
}

/**
 * What a rule's OpContext asks of the node's place: reports, folded inputs and subgraphs. One
 * object per node with a rule, rather than closures over the node's variables (a 50k-node graph
 * made 50k of each).
 */
class NodeHost implements OpContextHost {
  constructor(
    private readonly node: NodeProto,
    private readonly scope: Scope,
    private readonly env: Env,
    private readonly where: Where,
  ) {}

  report(code: string, message: string, part?: Part): void {
    reportAt(this.env, this.node, this.where, code, message, part);
  }

  inputConst(i: number): Const | undefined {
    const name = this.node.input[i];
    return name ? this.scope.const(name) : undefined;
  }

  inferSubgraph(g: GraphProto, attrName: string, types: readonly (ValueType | undefined)[], quiet?: boolean): (ValueType | undefined)[] {
    const env = quiet ? { ...this.env, reporter: this.env.reporter.muted() } : this.env;
    return inferGraph(g, env, this.scope, new ChildWhere(this.where, "attribute", attrName), types).outputs;
  }
}

function inputTypes(node: NodeProto, scope: Scope): (ValueType | undefined)[] {
  const names = node.input;
  const types: (ValueType | undefined)[] = new Array(names.length);
  for (let i = 0; i < names.length; i++) types[i] = names[i] === "" ? undefined : scope.type(names[i]!);
  return types;
}

export function inferNode(node: NodeProto, scope: Scope, env: Env, where: Where, declared: ReadonlyMap<string, ValueInfoProto>): void {
  const inputs = inputTypes(node, scope);
  const domain = canonicalDomain(node.domain);
  const version = env.opsets.get(domain);
  const fn = env.functions.size === 0 ? undefined : env.functions.get(functionKey(node.domain, node.opType, node.overload));
  let outputs: (ValueType | undefined)[] | undefined;
  let outConsts: readonly (Const | undefined)[] | undefined;
  if (fn) {
    if (env.depth < MAX_FUNCTION_DEPTH) {
      const host = new NodeHost(node, scope, env, where);
      outputs = inferFunctionCall(
        fn,
        node,
        inputs,
        node.input.map((_, i) => host.inputConst(i)),
        env,
      );
    }
  } else if (version !== undefined && !env.broken?.has(node)) {
    const schema = getSchema(domain, node.opType, version);
    if (schema) {
      const bound = bindConstraints(schema, inputs, node, env, where);
      outputs = outputsFromConstraints(schema, node.output.length, inputs, bound);
      const rule = ruleFor(domain, node.opType);
      if (rule) {
        const ctx = new OpContext(node, schema, version, inputs, outputs, new NodeHost(node, scope, env, where));
        try {
          rule(ctx);
        } catch (e) {
          // A rule that trips over malformed input (wrong arity, odd attributes) leaves the
          // outputs unknown: the checker reports the malformation itself.
          if (e instanceof ShapeError) reportAt(env, node, where, "shape-incompatible", `${node.opType}: ${e.message}`);
        }
        outputs = ctx.outputs;
        outConsts = ctx.outputConsts;
      }
      checkOutputConstraints(schema, outputs, node, env, where);
    }
  }
  for (let j = 0; j < node.output.length; j++) {
    const name = node.output[j]!;
    if (name === "") continue;
    const got = outputs?.[j];
    const vi = declared.get(name);
    if (vi || !got) scope.operatorOverrides.set(name, got);
    // Nothing declared is the common case: nothing to merge (a 50k-node graph has one output).
    const merged = vi && mergeTypes(fromTypeProto(vi.type), got);
    // Reported at the declaration, the text a user edits to change a value's type, with the
    // producing node (where onnx reports it) as the related place.
    // The proven type rides along as data: the quick fix declares it (code-actions.ts).
    if (merged?.conflict)
      env.reporter.report(
        "error",
        "declared-type-mismatch",
        `'${name}' is ${merged.conflict}`,
        vi,
        new ChildWhere(where, "value", name),
        "type",
        { message: `'${name}' is produced here by ${opName(node)}`, element: node, part: { output: j } },
        { inferredType: got! },
      );
    // After a contradiction the operator's answer flows on, so one mistake is reported once.
    const flowing = !vi || merged?.conflict ? got : merged?.type;
    if (flowing) scope.types.set(name, flowing);
    const c = outConsts?.[j];
    if (c) scope.consts.set(name, c);
  }
}

function reportAt(env: Env, node: NodeProto, where: Where, code: string, message: string, part: Part = "op"): void {
  env.reporter.report("error", code, message, node, where, part);
}

/** Infers a call of a model-local function by running its body on the actual input types. */
function inferFunctionCall(
  fn: FunctionProto,
  call: NodeProto,
  inputs: readonly (ValueType | undefined)[],
  consts: readonly (Const | undefined)[],
  env: Env,
): (ValueType | undefined)[] {
  const opsets = new Map(env.opsets);
  for (const o of fn.opsetImport) opsets.set(canonicalDomain(o.domain), Number(o.version));
  const muted: Env = { ...env, opsets, depth: env.depth + 1, reporter: env.reporter.muted(), graphTypes: new Map() };
  const scope = new Scope();
  fn.input.forEach((name, i) => {
    const t = inputs[i];
    if (t) scope.types.set(name, t);
    const c = consts[i];
    if (c) scope.consts.set(name, c);
  });
  const callAttrs = new Map(call.attribute.map((a) => [a.name, a]));
  const defaults = new Map(fn.attributeProto.map((a) => [a.name, a]));
  fn.node.forEach((node, i) => {
    const bound = bindAttributeRefs(node, callAttrs, defaults);
    inferNode(bound, scope, muted, describeNode(node, i), new Map());
  });
  return fn.output.map((name) => scope.types.get(name));
}

/** A copy of `node` whose `@ref` attributes take the caller's values (or the function's defaults). */
function bindAttributeRefs(node: NodeProto, callAttrs: ReadonlyMap<string, AttributeProto>, defaults: ReadonlyMap<string, AttributeProto>): NodeProto {
  if (!node.attribute.some((a) => a.refAttrName !== "")) return node;
  const attribute: AttributeProto[] = [];
  for (const a of node.attribute) {
    if (a.refAttrName === "") attribute.push(a);
    else {
      const v = callAttrs.get(a.refAttrName) ?? defaults.get(a.refAttrName);
      if (v) {
        const copy = clone(AttributeProtoSchema, v);
        copy.name = a.name;
        copy.refAttrName = "";
        attribute.push(copy);
      }
    }
  }
  const copy = clone(NodeProtoSchema, node);
  copy.attribute = attribute;
  return copy;
}
