// The per-op version steps: every pair of consecutive schema versions of an op, as onnx's
// schemas record them, and whether the two differ in their types only.
import { getSchemaVersions, type OpSchema } from "../schema/index.js";
import { schemaTables } from "../schema/load.js";

/** The domains whose versions convert (others keep their version). */
export const CONVERTIBLE_DOMAINS: readonly string[] = ["", "ai.onnx.ml"];

export interface VersionStep {
  readonly domain: string;
  readonly op: string;
  readonly older: OpSchema;
  /** The newer version; `deprecated` when the op was removed at that version. */
  readonly newer: OpSchema;
}

export function stepKey(domain: string, op: string, newer: number): string {
  return `${domain}|${op}|${newer}`;
}

/** Every version step of the convertible domains, by domain, op and version. */
export function allSteps(): VersionStep[] {
  const out: VersionStep[] = [];
  const tables = schemaTables().byDomain;
  for (const domain of CONVERTIBLE_DOMAINS) {
    const ops = tables.get(domain);
    if (!ops) continue;
    for (const op of [...ops.keys()].sort()) {
      const versions = getSchemaVersions(domain, op);
      for (let i = 1; i < versions.length; i++) out.push({ domain, op, older: versions[i - 1]!, newer: versions[i]! });
    }
  }
  return out;
}

/** Ops whose first version is above 1 (going below it needs a replacement op). */
export function firstVersion(domain: string, op: string): number | undefined {
  return getSchemaVersions(domain, op)[0]?.sinceVersion;
}

function params(s: OpSchema, which: "inputs" | "outputs"): string {
  // Type parameters are compared through their constraints, so only their being a parameter counts.
  return s[which].map((p) => `${p.name}:${p.option}:${p.typeStr.includes("(") ? p.typeStr : s.typeConstraints.has(p.typeStr) ? "T" : p.typeStr}`).join(",");
}

function attrs(s: OpSchema): string {
  return [...s.attributes.values()]
    .map((a) => `${a.name}:${a.type}:${a.required}:${JSON.stringify(a.default)}`)
    .sort()
    .join(",");
}

/** The two versions have the same inputs, outputs and attributes; only allowed types differ. */
export function typesOnly(a: OpSchema, b: OpSchema): boolean {
  return !b.deprecated && params(a, "inputs") === params(b, "inputs") && params(a, "outputs") === params(b, "outputs") && attrs(a) === attrs(b);
}

/** What changed between two versions, in words (for refusals and the docs). */
export function describeChange(a: OpSchema, b: OpSchema): string {
  if (b.deprecated) return `removed at opset ${b.sinceVersion}`;
  const parts: string[] = [];
  for (const [k, at] of a.attributes) {
    const bt = b.attributes.get(k);
    if (!bt) parts.push(`attribute ${k} removed`);
    else if (JSON.stringify(at) !== JSON.stringify(bt)) parts.push(`attribute ${k} changed`);
  }
  for (const k of b.attributes.keys()) if (!a.attributes.has(k)) parts.push(`attribute ${k} added`);
  if (params(a, "inputs") !== params(b, "inputs")) parts.push("inputs changed");
  if (params(a, "outputs") !== params(b, "outputs")) parts.push("outputs changed");
  const types = [...b.typeConstraints.keys()].some((k) => {
    const x = a.typeConstraints.get(k)?.allowed.join();
    return x !== b.typeConstraints.get(k)?.allowed.join();
  });
  if (types) parts.push("types changed");
  return parts.join(", ") || "documentation only";
}
