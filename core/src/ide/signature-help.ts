// Signature help inside an op's input list: the op's inputs, with the one at the cursor active.
import type { Analysis } from "./analysis.js";
import { opsetsAt } from "./opsets.js";
import { paramText } from "./schema-text.js";
import { canonicalDomain, getSchema } from "../schema/index.js";
import { functionKey } from "./symbols.js";
import { openBrackets, opBefore, topLevelCommas } from "./text-context.js";

interface SignatureInfo {
  readonly label: string;
  readonly documentation?: string;
  /** Each parameter's [start, end) within `label`. */
  readonly parameters: readonly { readonly label: [number, number]; readonly documentation?: string }[];
  readonly activeParameter: number;
}

export function signatureHelp(a: Analysis, offset: number): SignatureInfo | undefined {
  const open = openBrackets(a.text, offset).at(-1);
  if (!open || open.char !== "(") return undefined;
  const op = opBefore(a.text, open.offset);
  if (!op) return undefined;
  const index = topLevelCommas(a.text, open.offset + 1, offset);
  const local = a.ast?.functions.find((f) => {
    const k = functionKey(f);
    return k.name === op.opType && k.domain === op.domain;
  });
  if (local) {
    const names = (local.inputs?.items ?? []).map((d) => a.text.slice(d.span.start, d.span.end).replace(/\s+/g, " "));
    const outs = (local.outputs?.items ?? []).map((d) => d.name?.value ?? "");
    return build(op.op, names, `(${outs.join(", ")})`, index, false, "model-local function");
  }
  const version = opsetsAt(a.ast, open.offset).get(canonicalDomain(op.domain));
  if (version === undefined) return undefined;
  const schema = getSchema(op.domain, op.opType, version);
  if (!schema) return undefined;
  const variadicLast = schema.inputs.at(-1)?.option === "variadic";
  const outs = `(${schema.outputs.map(paramText).join(", ")})`;
  return build(op.op, schema.inputs.map(paramText), outs, index, variadicLast, schema.docUrl);
}

function build(op: string, params: string[], outs: string, index: number, variadicLast: boolean, doc: string): SignatureInfo {
  let label = `${op}(`;
  const parameters: { label: [number, number] }[] = [];
  params.forEach((p, i) => {
    if (i > 0) label += ", ";
    parameters.push({ label: [label.length, label.length + p.length] });
    label += p;
  });
  label += `) => ${outs}`;
  const last = params.length - 1;
  const active = index > last && variadicLast ? last : index;
  return { label, documentation: doc, parameters, activeParameter: active };
}
