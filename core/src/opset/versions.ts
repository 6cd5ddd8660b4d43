// The opset versions a conversion goes between, per domain: checked targets, what a model or a
// function imports, and the imports rewritten to the targets.
import type { OperatorSetIdProto } from "../../../proto/src/index.js";
import { canonicalDomain, latestOpsetVersion } from "../schema/index.js";
import { OpsetError } from "./errors.js";
import { shallow } from "./shallow.js";

/** Domain -> [version before, version after]. */
export type Versions = ReadonlyMap<string, readonly [number, number]>;

export function checkTarget(domain: string, target: number): void {
  const latest = latestOpsetVersion(domain);
  const name = domain === "" ? "ai.onnx" : domain;
  if (latest === undefined) throw new OpsetError(`unknown domain '${domain}'`);
  if (!Number.isInteger(target) || target < 1 || target > latest) throw new OpsetError(`opset ${target} of ${name} does not exist (known: 1 to ${latest})`);
}

/** The versions of the domains `imports` names (those without a target keep theirs); `fallback` fills the rest. */
export function importedVersions(
  imports: readonly OperatorSetIdProto[],
  targets: ReadonlyMap<string, number>,
  fallback?: ReadonlyMap<string, readonly [number, number]>,
): Map<string, readonly [number, number]> {
  const out = new Map<string, readonly [number, number]>();
  for (const o of imports) {
    const d = canonicalDomain(o.domain);
    const to = targets.get(d);
    out.set(d, [Number(o.version), to ?? Number(o.version)]);
  }
  for (const [d, v] of fallback ?? []) if (!out.has(d)) out.set(d, v);
  return out;
}

/** `imports` with the versions that change rewritten. */
export function retarget(imports: readonly OperatorSetIdProto[], versions: ReadonlyMap<string, readonly [number, number]>): OperatorSetIdProto[] {
  return imports.map((o) => {
    const v = versions.get(canonicalDomain(o.domain));
    return v && v[0] !== v[1] ? shallow(o, { version: BigInt(v[1]) }) : o;
  });
}
