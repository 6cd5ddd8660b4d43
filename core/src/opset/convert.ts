// convertOpset: every node of the main graph, its subgraphs and the model's local functions,
// in the convertible domains, moved to the target opset; refusals are collected, not thrown.
import { create, equals, isFieldSet } from "@bufbuild/protobuf";
import {
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  ValueInfoProtoSchema,
  type TensorProto,
  type AttributeProto,
  type FunctionProto,
  type GraphProto,
  type ModelProto,
  type NodeProto,
} from "../../../proto/src/index.js";
import { inferModel } from "../infer/index.js";
import { tensor, toTypeProto, type ValueType } from "../infer/types.js";
import { canonicalDomain, knownDomains } from "../schema/index.js";
import { Constants } from "./constants.js";
import type { StepContext } from "./context.js";
import { OpsetError } from "./errors.js";
import { convertNode, type NodeEnv } from "./node-steps.js";
import type { ConvertOpsetOptions, OpsetConversion, RefusedNode } from "./report.js";
import { Names } from "./names.js";
import { shallow } from "./shallow.js";
import { minIrVersion, neededIrVersion } from "./ir-version.js";
import { checkTarget, importedVersions, retarget } from "./versions.js";
import { asInitializer, isConstant, readNames } from "./constant-nodes.js";
import { functionTypes } from "./function-types.js";
import { adoptModel } from "../clone.js";

interface Run {
  readonly options: ConvertOpsetOptions;
  readonly graphTypes: ReadonlyMap<GraphProto, ReadonlyMap<string, ValueType>>;
  readonly localTypes: Map<string, ValueType>;
  readonly names: Names;
  readonly functions: ReadonlySet<string>;
  readonly refused: RefusedNode[];
  readonly replacements: Map<NodeProto, readonly NodeProto[]>;
  readonly viaSubgraphs: Set<NodeProto>;
  readonly irVersion: number;
  rewritten: number;
  unchanged: number;
}

/** Where a graph sits: its versions per domain and how to name it in reports. */
interface Place {
  readonly versions: ReadonlyMap<string, readonly [number, number]>;
  readonly path: string;
  readonly constants: Constants;
  readonly types: (name: string) => ValueType | undefined;
  /** Where Constants that the target opset cannot hold go (graphs only; functions have no initializers). */
  readonly initializers?: TensorProto[];
}

function env(run: Run, place: Place): NodeEnv {
  return {
    context(older, newer, up, at): StepContext {
      return {
        older,
        newer,
        up,
        at,
        constants: place.constants,
        type: (n) => run.localTypes.get(n) ?? place.types(n),
        setType: (n, t) => void run.localTypes.set(n, t),
        fresh: (hint) => run.names.fresh(hint),
        used: (n) => run.names.used(n),
      };
    },
  };
}

function nodeLabel(n: NodeProto): string {
  return `${n.name ? `node '${n.name}' ` : ""}(${n.domain ? `${n.domain}.` : ""}${n.opType})`;
}

function convertAttribute(a: AttributeProto, run: Run, place: Place, owner: string): AttributeProto {
  if (a.g) {
    const g = convertGraph(a.g, run, place, `${owner} attribute ${a.name}`);
    return g === a.g ? a : shallow(a, { g });
  }
  if (a.graphs.length > 0) {
    const gs = a.graphs.map((g, i) => convertGraph(g, run, place, `${owner} attribute ${a.name}[${i}]`));
    return gs.every((g, i) => g === a.graphs[i]) ? a : shallow(a, { graphs: gs });
  }
  return a;
}

function convertNodes(nodes: readonly NodeProto[], run: Run, place: Place, outputs: readonly string[]): NodeProto[] | undefined {
  // Constants go last: an input that became an attribute leaves its Constant unread, and such a
  // Constant is dropped rather than converted (int64 Constants do not exist before opset 9).
  const results: (readonly NodeProto[])[] = new Array(nodes.length);
  nodes.forEach((n, i) => {
    if (!isConstant(n)) results[i] = convertOne(n, run, place);
  });
  const read = readNames(
    results.flatMap((r) => r ?? []),
    new Set(outputs),
  );
  for (const n of nodes) if (isConstant(n)) readNames([n], read);
  nodes.forEach((n, i) => {
    if (!isConstant(n)) return;
    const dead = n.output.every((o) => !read.has(o)) && n.output.some((o) => run.names.used(o));
    const moved = dead ? undefined : asInitializer(n, place.versions.get("")?.[1], place.initializers);
    if (moved) {
      place.initializers!.push(moved);
      results[i] = [];
      run.rewritten++;
      run.replacements.set(n, []);
    } else if (!dead) results[i] = convertOne(n, run, place);
    else {
      results[i] = [];
      run.rewritten++;
      run.replacements.set(n, []);
    }
  });
  const changed = results.some((r, i) => r.length !== 1 || r[0] !== nodes[i]);
  return changed ? results.flat() : undefined;
}

/** New nodes spell their domain as the original did (set or not), so the text needs no residual for it. */
function withDomainPresence(nodes: NodeProto[], original: NodeProto): NodeProto[] {
  if (!isFieldSet(original, NodeProtoSchema.field.domain)) return nodes;
  for (const n of nodes) if (!isFieldSet(n, NodeProtoSchema.field.domain)) n.domain = original.domain;
  return nodes;
}

function convertOne(original: NodeProto, run: Run, place: Place): readonly NodeProto[] {
  const owner = `${place.path} > ${nodeLabel(original)}`;
  const attrs = original.attribute.map((a) => convertAttribute(a, run, place, owner));
  const node = attrs.every((a, i) => a === original.attribute[i]) ? original : shallow(original, { attribute: attrs });
  const domain = canonicalDomain(node.domain);
  const versions = place.versions.get(domain);
  const refuse = (reason: string, step: readonly [number, number]): void => {
    const span = run.options.sourceMap?.get(original)?.whole;
    run.refused.push({ domain, op: node.opType, name: node.name, path: place.path, step, reason, node: original, ...(span && { span }) });
  };
  let result: NodeProto[] = [node];
  if (run.functions.has(`${node.domain}|${node.opType}`)) {
    // A call of a local function: its body converts on its own.
  } else if (!knownDomains().includes(domain)) {
    refuse(`custom operator ${domain}.${node.opType}: domain '${domain}' is unknown, so its meaning at another opset is too`, [0, 0]);
  } else if (versions && versions[0] !== versions[1]) {
    const r = convertNode(node, domain, versions[0], versions[1], env(run, place));
    if ("refused" in r) refuse(r.refused, r.step);
    else result = withDomainPresence(r.nodes, original);
  }
  const same = result.length === 1 && (result[0] === original || equals(NodeProtoSchema, result[0]!, original));
  if (same) {
    run.unchanged++;
    return [original];
  }
  run.replacements.set(original, result);
  // A node whose only change is inside its subgraphs was not itself rewritten.
  if (node !== original && result.length === 1 && equals(NodeProtoSchema, result[0]!, node)) {
    run.viaSubgraphs.add(original);
    run.unchanged++;
  } else run.rewritten++;
  return result;
}

function convertGraph(g: GraphProto, run: Run, outer: Place, path: string): GraphProto {
  const types = run.graphTypes.get(g);
  const initializers: TensorProto[] = [];
  const place: Place = {
    initializers,
    versions: outer.versions,
    path: path === "" ? `graph '${g.name}'` : `${path} graph '${g.name}'`,
    constants: Constants.ofGraph(g, outer.constants),
    types: (n) => types?.get(n) ?? outer.types(n),
  };
  const nodes = convertNodes(
    g.node,
    run,
    place,
    g.output.map((o) => o.name),
  );
  if (!nodes) return g;
  // IR versions before 4 list every initializer among the graph's inputs too.
  const inputs =
    run.irVersion < 4 ? initializers.map((t) => create(ValueInfoProtoSchema, { name: t.name, type: toTypeProto(tensor(t.dataType, t.dims.map(Number))) })) : [];
  return shallow(g, { node: nodes, initializer: [...g.initializer, ...initializers], input: [...g.input, ...inputs] });
}

/**
 * `model` with every node of the default domain (and of the domains in `options.domains`) moved
 * to opset `target`. Nodes that cannot move keep their old form and are listed in `refused`
 * with the reason; the model is then only partly converted. Throws {@link OpsetError} for a
 * target that does not exist.
 */
export function convertOpset(model: ModelProto, target: number, options: ConvertOpsetOptions = {}): OpsetConversion {
  model = adoptModel(model);
  const targets = new Map<string, number>([["", target]]);
  for (const [d, v] of Object.entries(options.domains ?? {})) targets.set(canonicalDomain(d), v);
  for (const [d, v] of targets) checkTarget(d, v);
  let graphTypes: ReadonlyMap<GraphProto, ReadonlyMap<string, ValueType>> = new Map();
  try {
    graphTypes = inferModel(model, options.sourceMap ? { sourceMap: options.sourceMap } : {}).graphTypes;
  } catch {
    // Without types, adapters that need them refuse and say so.
  }
  // Inside local functions, types come from their call sites in the graphs.
  const fnTypes = functionTypes(model, graphTypes);
  const run: Run = {
    options,
    graphTypes,
    localTypes: new Map(),
    names: Names.ofModel(model),
    functions: new Set(model.functions.map((f) => `${f.domain}|${f.name}`)),
    refused: [],
    replacements: new Map(),
    viaSubgraphs: new Set(),
    irVersion: Number(model.irVersion),
    rewritten: 0,
    unchanged: 0,
  };
  const imports = [...model.opsetImport];
  if (!imports.some((o) => canonicalDomain(o.domain) === "")) imports.push(create(OperatorSetIdProtoSchema, { domain: "", version: BigInt(target) }));
  const versions = importedVersions(imports, targets);
  const top: Place = { versions, path: "", constants: new Constants(), types: () => undefined };
  const graph = model.graph ? convertGraph(model.graph, run, top, "") : undefined;
  const functions = model.functions.map((f): FunctionProto => {
    const fv = importedVersions(f.opsetImport, targets, versions);
    const types = fnTypes.get(f);
    const place: Place = {
      versions: fv,
      path: `function '${f.domain ? `${f.domain}.` : ""}${f.name}'`,
      constants: Constants.ofNodes(f.node, []),
      types: (n) => types?.get(n),
    };
    const nodes = convertNodes(f.node, run, place, f.output);
    const opsetImport = retarget(f.opsetImport, fv);
    return nodes || opsetImport.some((o, i) => o !== f.opsetImport[i]) ? shallow(f, { node: nodes ?? f.node, opsetImport }) : f;
  });
  const from = Number(versions.get("")?.[0] ?? target);
  const out = shallow(model, { opsetImport: retarget(imports, versions), functions, ...(graph && { graph }) });
  const ir = Number(model.irVersion);
  if (target > from) out.irVersion = BigInt(Math.max(ir, minIrVersion(target)));
  else if (target < from) out.irVersion = BigInt(Math.min(ir, Math.max(minIrVersion(target), neededIrVersion(out))));
  return {
    model: out,
    versions,
    rewritten: run.rewritten,
    unchanged: run.unchanged,
    refused: run.refused,
    replacements: run.replacements,
    viaSubgraphs: run.viaSubgraphs,
  };
}
