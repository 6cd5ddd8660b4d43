// Turns the generated compact schema data into OpSchema objects, once, on first use.
// Layout of each schema tuple (written by scripts/gen-schemas.mjs):
//   [domain, name, since, flags(1 deprecated | 2 shape inference), [minIn, maxIn, minOut, maxOut],
//    inputs, outputs, attributes, typeConstraints, functionBodies, contextDependentVersions, docUrl]
// A parameter is [name, typeStr, option(0 single, 1 optional, 2 variadic), homogeneous, minArity];
// an attribute is [name, type, required, default?]; a constraint is [param, typeListIndex].
import { SCHEMA_DATA_JSON } from "./generated/schema-data.js";
import type { AttributeDefault, AttributeSchema, AttributeTypeName, FormalParameter, OpSchema, ParamOption, TypeConstraint } from "./types.js";

type RawParam = [string, string, 0 | 1 | 2, 0 | 1, number];
type RawAttribute = [string, AttributeTypeName, 0 | 1, AttributeDefault?];
type RawSchema = [
  string,
  string,
  number,
  number,
  [number, number, number, number],
  RawParam[],
  RawParam[],
  RawAttribute[],
  [string, number][],
  [number, string][],
  number[],
  string,
];
interface RawData {
  onnxVersion: string;
  typeLists: string[][];
  schemas: RawSchema[];
}

const OPTIONS: readonly ParamOption[] = ["single", "optional", "variadic"];

function param([name, typeStr, option, homogeneous, minArity]: RawParam): FormalParameter {
  return { name, typeStr, option: OPTIONS[option]!, homogeneous: homogeneous === 1, minArity };
}

function attribute([name, type, required, def]: RawAttribute): AttributeSchema {
  return def === undefined ? { name, type, required: required === 1 } : { name, type, required: required === 1, default: def };
}

/** The type lists of the tables, each with its set (shared by every constraint that uses the list). */
interface TypeList {
  readonly list: readonly string[];
  readonly set: ReadonlySet<string>;
}

function schema(raw: RawSchema, typeLists: readonly TypeList[]): OpSchema {
  const [domain, name, sinceVersion, flags, [minInput, maxInput, minOutput, maxOutput], ins, outs, attrs, tcs, bodies, cdv, docUrl] = raw;
  const typeConstraints = new Map<string, TypeConstraint>(tcs.map(([p, i]) => [p, { param: p, allowed: typeLists[i]!.list, allowedSet: typeLists[i]!.set }]));
  return {
    domain,
    name,
    sinceVersion,
    deprecated: (flags & 1) !== 0,
    hasShapeInference: (flags & 2) !== 0,
    minInput,
    maxInput,
    minOutput,
    maxOutput,
    inputs: ins.map(param),
    outputs: outs.map(param),
    attributes: new Map(attrs.map((a) => [a[0], attribute(a)])),
    typeConstraints,
    functionBodies: new Map(bodies),
    contextDependentFunctionVersions: cdv,
    docUrl,
  };
}

interface SchemaTables {
  readonly onnxVersion: string;
  /** domain -> op name -> versions sorted by since_version. */
  readonly byDomain: ReadonlyMap<string, ReadonlyMap<string, readonly OpSchema[]>>;
}

let tables: SchemaTables | undefined;

export function schemaTables(): SchemaTables {
  if (tables) return tables;
  const data = JSON.parse(SCHEMA_DATA_JSON) as RawData;
  const byDomain = new Map<string, Map<string, OpSchema[]>>();
  const typeLists = data.typeLists.map((list) => ({ list, set: new Set(list) }));
  for (const raw of data.schemas) {
    const s = schema(raw, typeLists);
    let ops = byDomain.get(s.domain);
    if (!ops) byDomain.set(s.domain, (ops = new Map()));
    let versions = ops.get(s.name);
    if (!versions) ops.set(s.name, (versions = []));
    versions.push(s);
  }
  for (const ops of byDomain.values()) for (const v of ops.values()) v.sort((a, b) => a.sinceVersion - b.sinceVersion);
  tables = { onnxVersion: data.onnxVersion, byDomain };
  return tables;
}
