// Per-node checks against the imported opsets and the operator schemas: the domain is
// imported, the op exists at that version, arity, required/unknown attributes and their types.
import { AttributeProto_AttributeType as AT, type AttributeProto, type FunctionProto, type NodeProto } from "../../../proto/src/index.js";
import { canonicalDomain, findSchema, getSchemaVersions, latestOpsetVersion, listOps, type OpSchema } from "../schema/index.js";
import { functionKey } from "../infer/index.js";
import { ChildWhere, opName, type Where } from "../infer/location.js";
import type { Emitter } from "./emit.js";
import { didYouMean, editDistance } from "./suggest.js";
import { REPLACED_BELOW_FIRST } from "../opset/table/index.js";

export interface NodeEnv {
  readonly opsets: ReadonlyMap<string, number>;
  readonly functions: ReadonlyMap<string, FunctionProto>;
  /** Set inside a function body: the names `@ref` may use. */
  readonly functionAttributes?: ReadonlySet<string>;
}

function domainLabel(domain: string): string {
  return domain === "" ? "ai.onnx" : domain;
}

function attributeTypeName(t: AT): string {
  return AT[t] ?? String(t);
}

export function checkNode(node: NodeProto, where: Where, env: NodeEnv, out: Emitter): void {
  checkAttributeBasics(node, where, env, out);
  const domain = canonicalDomain(node.domain);
  const fn = env.functions.size === 0 ? undefined : env.functions.get(functionKey(domain, node.opType, node.overload));
  const version = env.opsets.get(domain);
  if (version === undefined) {
    out.emit("domain-not-imported", `domain '${domainLabel(domain)}' of ${node.opType} is not in opset_import`, node, where, "op");
    return;
  }
  if (fn) return checkFunctionCall(node, fn, where, out);
  const versions = getSchemaVersions(domain, node.opType);
  if (versions.length === 0) {
    // Custom domains have no schemas to check against; ai.onnx and its siblings do.
    if (versions.length === 0 && isStandardDomain(domain)) {
      const hint = closestOp(domain, node.opType, version);
      out.emit("unknown-op", `${domainLabel(domain)} has no operator '${node.opType}'${hint ? `; ${didYouMean(hint)}` : ""}`, node, where, "op");
    }
    return;
  }
  const schema = findSchema(domain, node.opType, version);
  if (!schema || schema.deprecated) {
    const why = schema ? `was removed in opset ${schema.sinceVersion}` : `exists only from opset ${versions[0]!.sinceVersion}`;
    const instead = schema ? replacementOf(domain, node.opType) : undefined;
    out.emit(
      "op-not-in-opset",
      `${node.opType} is not available at ${domainLabel(domain)} opset ${version}: it ${why}${instead ? `; use ${instead}` : ""}`,
      node,
      where,
      "op",
    );
    return;
  }
  checkArity(node, schema, version, where, out);
  checkAttributes(node, schema, version, where, out);
}

/** The op that took a removed op's place (Upsample -> Resize), from the opset step table's replacements. */
function replacementOf(domain: string, op: string): string | undefined {
  for (const [key, r] of REPLACED_BELOW_FIRST) {
    const [d, newer] = key.split("|");
    if (d === domain && r.op === op) return newer;
  }
  return undefined;
}

/** The first opset at which `op` takes `name` as an input (an attribute before it: Unsqueeze's axes at 13). */
function becameInputAt(domain: string, op: string, name: string): { version: number; index: number } | undefined {
  for (const s of getSchemaVersions(domain, op)) {
    const index = s.inputs.findIndex((i) => i.name === name);
    if (index >= 0) return { version: s.sinceVersion, index };
  }
  return undefined;
}

/** A known op whose name is within two edits of `name` (ignoring case), for a hint. */
function closestOp(domain: string, name: string, version: number): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const op of listOps(domain, Math.max(version, latestOpsetVersion(domain) ?? version))) {
    if (Math.abs(name.length - op.name.length) > 2) continue;
    const d = editDistance(name.toLowerCase(), op.name.toLowerCase());
    if (d < bestDistance) {
      best = op.name;
      bestDistance = d;
    }
  }
  return best;
}

function isStandardDomain(domain: string): boolean {
  return domain === "" || domain === "ai.onnx.ml" || domain === "ai.onnx.preview" || domain === "ai.onnx.preview.training";
}

/** "3 are given ('a', 'b', '')", "none is given". */
function given(names: readonly string[]): string {
  if (names.length === 0) return "none is given";
  const shown = names
    .slice(0, 6)
    .map((n) => `'${n}'`)
    .join(", ");
  return `${names.length} ${names.length === 1 ? "is" : "are"} given (${shown}${names.length > 6 ? ", ..." : ""})`;
}

function checkArity(node: NodeProto, schema: OpSchema, version: number, where: Where, out: Emitter): void {
  // Trailing empty names are the same as absent optional inputs.
  let nIn = node.input.length;
  while (nIn > 0 && node.input[nIn - 1] === "") nIn--;
  // Inputs left out because they were written as attributes (`Unsqueeze <axes = [1]> (x)` at 13):
  // the attribute's error says so; "takes 2 inputs" would only repeat it.
  const asAttributes = nIn < schema.minInput && schema.inputs.slice(nIn, schema.minInput).every((f) => node.attribute.some((a) => a.name === f.name));
  if ((nIn < schema.minInput && !asAttributes) || nIn > schema.maxInput) {
    const part = nIn > schema.maxInput ? { input: schema.maxInput } : "op";
    out.emit(
      "wrong-arity",
      `${opName(node)} at opset ${version} takes ${range(schema.minInput, schema.maxInput)} input${schema.maxInput === 1 ? "" : "s"}, but ${given(node.input.slice(0, nIn))}`,
      node,
      where,
      part,
    );
  }
  const nOut = node.output.length;
  if (nOut < schema.minOutput || nOut > schema.maxOutput) {
    const part = nOut > schema.maxOutput ? { output: schema.maxOutput } : "op";
    out.emit(
      "wrong-arity",
      `${opName(node)} at opset ${version} has ${range(schema.minOutput, schema.maxOutput)} output${schema.maxOutput === 1 ? "" : "s"}, but ${given(node.output)}`,
      node,
      where,
      part,
    );
  }
  for (let i = 0; i < nIn; i++) {
    const formal = schema.inputs[i];
    if (node.input[i] === "" && formal?.option === "single") {
      out.emit("missing-input", `input ${i} ('${formal.name}') of ${opName(node)} is required but left empty`, node, where, { input: i });
    }
  }
}

function range(min: number, max: number): string {
  if (min === max) return String(min);
  if (max >= 2 ** 31 - 1) return `at least ${min}`;
  return `${min} to ${max}`;
}

function checkAttributeBasics(node: NodeProto, where: Where, env: NodeEnv, out: Emitter): void {
  // Most nodes have no attribute or one: the set (and the locations) are made only when needed.
  const seen = node.attribute.length > 1 ? new Set<string>() : undefined;
  for (let k = 0; k < node.attribute.length; k++) {
    const a = node.attribute[k]!;
    const at = (): Where => new ChildWhere(where, "attribute", a.name);
    if (seen?.has(a.name)) out.emit("duplicate-attribute", `attribute '${a.name}' is set twice`, a, at(), "name");
    seen?.add(a.name);
    if (a.refAttrName === "") continue;
    if (!env.functionAttributes)
      out.emit(
        "attribute-ref-outside-function",
        `'${a.name}' refers to '@${a.refAttrName}', but only a function body can refer to attributes`,
        a,
        at(),
        "value",
      );
    else if (!env.functionAttributes.has(a.refAttrName))
      out.emit("unknown-attribute-ref", `'@${a.refAttrName}' is not an attribute of the enclosing function`, a, at(), "value");
  }
}

function checkAttributes(node: NodeProto, schema: OpSchema, version: number, where: Where, out: Emitter): void {
  for (let k = 0; k < node.attribute.length; k++) {
    const a = node.attribute[k]!;
    const at = new ChildWhere(where, "attribute", a.name);
    const formal = schema.attributes.get(a.name);
    if (!formal) {
      const input = becameInputAt(canonicalDomain(node.domain), node.opType, a.name);
      if (input && input.version <= version) {
        out.emit(
          "unknown-attribute",
          `${opName(node)} at opset ${version} takes '${a.name}' as its input ${input.index + 1} (since opset ${input.version}), not as an attribute: give it as a tensor (an initializer or a Constant)`,
          a,
          at,
          "name",
        );
        continue;
      }
      const names = [...schema.attributes.keys()].sort();
      out.emit(
        "unknown-attribute",
        `${opName(node)} at opset ${version} has no attribute '${a.name}'${names.length ? ` (it has ${names.join(", ")})` : " (it has none)"}`,
        a,
        at,
        "name",
      );
      continue;
    }
    const expected = AT[formal.type as keyof typeof AT];
    const actual = attributeType(a);
    if (a.refAttrName === "" && actual !== AT.UNDEFINED && actual !== expected) {
      out.emit(
        "attribute-type",
        `attribute '${a.name}' of ${opName(node)} must be ${formal.type.toLowerCase()}, not ${attributeTypeName(actual).toLowerCase()}${listHint(a, actual, expected)}`,
        a,
        at,
        "value",
      );
    }
  }
  if (schema.attributes.size === 0) return;
  for (const formal of schema.attributes.values()) {
    if (formal.required && !node.attribute.some((a) => a.name === formal.name)) {
      out.emit(
        "missing-attribute",
        `${opName(node)} requires attribute '${formal.name}' (${formal.type.toLowerCase()}), but it is not given`,
        node,
        where,
        "op",
      );
    }
  }
}

/** `strides = 2` where a list is needed: the list to write, `[2]`. */
function listHint(a: AttributeProto, actual: AT, expected: AT): string {
  if (actual === AT.INT && expected === AT.INTS) return `: write ${a.name} = [${a.i}]`;
  if (actual === AT.STRING && expected === AT.STRINGS) return `: write ${a.name} = [${JSON.stringify(new TextDecoder().decode(a.s))}]`;
  return "";
}

/** The declared type, or the one the set fields imply when the type is missing. */
function attributeType(a: AttributeProto): AT {
  if (a.type !== AT.UNDEFINED) return a.type;
  if (a.ints.length) return AT.INTS;
  if (a.floats.length) return AT.FLOATS;
  if (a.strings.length) return AT.STRINGS;
  if (a.g) return AT.GRAPH;
  if (a.t) return AT.TENSOR;
  return AT.UNDEFINED;
}

function checkFunctionCall(node: NodeProto, fn: FunctionProto, where: Where, out: Emitter): void {
  if (node.input.length > fn.input.length) {
    out.emit(
      "wrong-arity",
      `function ${fn.name} takes ${fn.input.length} input${fn.input.length === 1 ? "" : "s"}, not ${node.input.length}`,
      node,
      where,
      "op",
    );
  }
  if (node.output.length > fn.output.length) {
    out.emit(
      "wrong-arity",
      `function ${fn.name} has ${fn.output.length} output${fn.output.length === 1 ? "" : "s"}, not ${node.output.length}`,
      node,
      where,
      "op",
    );
  }
  const declared = new Set([...fn.attribute, ...fn.attributeProto.map((a) => a.name)]);
  for (const a of node.attribute) {
    if (!declared.has(a.name))
      out.emit("unknown-attribute", `function ${fn.name} has no attribute '${a.name}'`, a, new ChildWhere(where, "attribute", a.name), "name");
  }
}
