// How each per-op version step converts, up and down, as data: the docs table and the
// coverage numbers come from here, so they describe exactly what the adapters do.
import type { StepSpec } from "./spec.js";
import { allSteps, stepKey, typesOnly, describeChange, type VersionStep } from "./steps.js";
import { REPLACED_BELOW_FIRST, stepSpecs } from "./table/index.js";
import { getSchemaVersions } from "../schema/index.js";
import { CONVERTIBLE_DOMAINS } from "./steps.js";
import { schemaTables } from "../schema/load.js";
import { inlinable } from "./adapters/function-body.js";

export interface StepDirection {
  readonly converts: boolean;
  /** How (when it converts) or why not. */
  readonly text: string;
}

export interface StepCoverage {
  readonly domain: string;
  readonly op: string;
  readonly older: number;
  readonly newer: number;
  /** What the schemas say changed. */
  readonly change: string;
  readonly up: StepDirection;
  /** Undefined for a step that removed the op (no node of it exists above). */
  readonly down?: StepDirection;
}

function generic(spec: StepSpec, up: boolean): string {
  const parts: string[] = [];
  const added = Object.entries(spec.added ?? {});
  if (added.length > 0) {
    const list = added.map(([k, v]) => (v === null ? `${k} (absent)` : `${k} = ${JSON.stringify(v)}`)).join(", ");
    parts.push(up ? `added ${list}: the old behaviour written out where the default differs` : `added ${list}: refused unless the node has that value`);
  }
  for (const [k, r] of Object.entries(spec.removed ?? {}))
    parts.push(
      up
        ? `${k} dropped${r.ok === "any" ? "" : ` when ${JSON.stringify(r.ok)}`}`
        : `${k} ${r.downSet === undefined ? "omitted" : `= ${JSON.stringify(r.downSet)}`}`,
    );
  if (spec.defaults?.length) parts.push(`changed defaults of ${spec.defaults.join(", ")} written out`);
  if (!up && spec.negativeAxes) parts.push(`negative ${spec.negativeAxes.join("/")} normalized with the rank`);
  if (!up && spec.newValues)
    parts.push(
      `refused for ${Object.entries(spec.newValues)
        .map(([k, v]) => `${k} = ${v.join("/")}`)
        .join(", ")}`,
    );
  if (!up && spec.broadcast) parts.push("needs inputs of one known shape");
  if (!up && spec.addedInputs) parts.push("refused when the new inputs are given");
  return parts.join("; ");
}

function direction(spec: StepSpec | undefined, up: boolean, step: VersionStep): StepDirection {
  if (!spec) return { converts: false, text: `no adapter (${describeChange(step.older, step.newer)})` };
  const custom = up ? spec.up : spec.down;
  if (typeof custom === "string") return { converts: false, text: custom };
  const text = spec.how ?? (generic(spec, up) || "types only: the same node, its types checked against the target schema");
  return { converts: true, text };
}

export function stepCoverage(): StepCoverage[] {
  const specs = stepSpecs();
  return allSteps().map((step) => {
    const key = stepKey(step.domain, step.op, step.newer.sinceVersion);
    const spec = specs.get(key) ?? (typesOnly(step.older, step.newer) ? {} : undefined);
    const base = {
      domain: step.domain,
      op: step.op,
      older: step.older.sinceVersion,
      newer: step.newer.sinceVersion,
      change: describeChange(step.older, step.newer),
      up: direction(spec, true, step),
    };
    return step.newer.deprecated ? base : { ...base, down: direction(spec, false, step) };
  });
}

/** Ops whose first version is above 1, and whether anything replaces them below it. */
export function introducedOps(): { domain: string; op: string; since: number; replacement?: string }[] {
  const out: { domain: string; op: string; since: number; replacement?: string }[] = [];
  for (const domain of CONVERTIBLE_DOMAINS) {
    for (const op of [...(schemaTables().byDomain.get(domain)?.keys() ?? [])].sort()) {
      const since = getSchemaVersions(domain, op)[0]!.sinceVersion;
      if (since <= 1) continue;
      const r = REPLACED_BELOW_FIRST.get(stepKey(domain, op, since));
      const inlined = !r && inlinable(getSchemaVersions(domain, op)[0]!) ? `${op}-${since} -> its onnx function body, inlined` : undefined;
      const replacement = r?.how ?? inlined;
      out.push(replacement ? { domain, op, since, replacement } : { domain, op, since });
    }
  }
  return out;
}
