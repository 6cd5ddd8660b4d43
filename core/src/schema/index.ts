// Operator schema lookup: which ops exist in a domain at an opset version, and what each
// one declares. `getSchema` applies the since_version rule: the schema in force at opset N
// is the one with the largest since_version <= N (unless that one marks the op removed).
import { schemaTables } from "./load.js";
import type { OpSchema } from "./types.js";

export type * from "./types.js";

/** ai.onnx is spelled "" in protos; both spellings name the same domain. */
export function canonicalDomain(domain: string): string {
  return domain === "ai.onnx" ? "" : domain;
}

export function knownDomains(): string[] {
  return [...schemaTables().byDomain.keys()];
}

/** The highest opset version that any schema of `domain` was introduced at. */
export function latestOpsetVersion(domain: string): number | undefined {
  const ops = schemaTables().byDomain.get(canonicalDomain(domain));
  if (!ops) return undefined;
  let max = 0;
  for (const versions of ops.values()) max = Math.max(max, versions[versions.length - 1]!.sinceVersion);
  return max;
}

/** Every version of one op, oldest first (empty when the op is unknown). */
export function getSchemaVersions(domain: string, opType: string): readonly OpSchema[] {
  return schemaTables().byDomain.get(canonicalDomain(domain))?.get(opType) ?? [];
}

/** The schema version in force at `opsetVersion`, including a deprecated (removed) marker. */
export function findSchema(domain: string, opType: string, opsetVersion: number): OpSchema | undefined {
  const versions = getSchemaVersions(domain, opType);
  let found: OpSchema | undefined;
  // Indexed: this runs twice per node of a check, mostly before V8 optimises it (for-of allocates then).
  for (let i = 0; i < versions.length; i++) {
    if (versions[i]!.sinceVersion > opsetVersion) break;
    found = versions[i];
  }
  return found;
}

/** The usable schema at `opsetVersion`: undefined when the op does not exist yet or was removed. */
export function getSchema(domain: string, opType: string, opsetVersion: number): OpSchema | undefined {
  const s = findSchema(domain, opType, opsetVersion);
  return s && !s.deprecated ? s : undefined;
}

/** The ops usable in `domain` at `opsetVersion`, sorted by name. */
export function listOps(domain: string, opsetVersion: number): OpSchema[] {
  const ops = schemaTables().byDomain.get(canonicalDomain(domain));
  if (!ops) return [];
  const out: OpSchema[] = [];
  for (const name of [...ops.keys()].sort()) {
    const s = getSchema(domain, name, opsetVersion);
    if (s) out.push(s);
  }
  return out;
}

/** The function body (text syntax) that defines `schema` at `opsetVersion`, if it has one. */
export function functionBody(schema: OpSchema, opsetVersion: number): string | undefined {
  let best: number | undefined;
  for (const v of schema.functionBodies.keys()) if (v <= opsetVersion && (best === undefined || v > best)) best = v;
  return best === undefined ? undefined : schema.functionBodies.get(best);
}
