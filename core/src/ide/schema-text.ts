// Operator schemas as short text: signatures, parameters and attribute defaults.
import { asFloatLiteral, formatFloat32 } from "../numbers/float-text.js";
import type { AttributeDefault, AttributeSchema, AttributeTypeName, FormalParameter, OpSchema } from "../schema/index.js";

export function paramText(p: FormalParameter): string {
  const mark = p.option === "optional" ? "?" : p.option === "variadic" ? "..." : "";
  return `${p.name}${mark}: ${p.typeStr}`;
}

function signatureText(s: OpSchema): string {
  const op = s.domain ? `${s.domain}.${s.name}` : s.name;
  return `${op}(${s.inputs.map(paramText).join(", ")}) => (${s.outputs.map(paramText).join(", ")})`;
}

/** An attribute default as the text syntax writes it; float defaults are float32 values. */
export function defaultText(d: AttributeDefault, type?: AttributeTypeName): string {
  if (Array.isArray(d)) return `[${d.map((x) => defaultText(x as AttributeDefault, type)).join(", ")}]`;
  if (typeof d === "string") return JSON.stringify(d);
  const n = d as number;
  return type === "FLOAT" || type === "FLOATS" ? asFloatLiteral(formatFloat32(Math.fround(n))) : String(n);
}

export function attributeText(a: AttributeSchema): string {
  const tail = a.default !== undefined ? ` = ${defaultText(a.default, a.type)}` : a.required ? " (required)" : " (optional)";
  return `${a.name}: ${a.type.toLowerCase()}${tail}`;
}

/** A markdown description of an op at an opset. */
export function schemaMarkdown(s: OpSchema, importedVersion: number): string {
  const lines = [
    "```onnxtxt",
    signatureText(s),
    "```",
    `since opset ${s.sinceVersion} (imported: ${importedVersion}) · domain \`${s.domain || "ai.onnx"}\``,
    "",
  ];
  if (s.inputs.length) lines.push("**Inputs**", ...s.inputs.map((p) => `- \`${paramText(p)}\``), "");
  if (s.outputs.length) lines.push("**Outputs**", ...s.outputs.map((p) => `- \`${paramText(p)}\``), "");
  if (s.attributes.size) lines.push("**Attributes**", ...[...s.attributes.values()].map((a) => `- \`${attributeText(a)}\``), "");
  if (s.typeConstraints.size) {
    lines.push("**Types**", ...[...s.typeConstraints.values()].map((t) => `- \`${t.param}\`: ${t.allowed.join(", ")}`), "");
  }
  if (s.docUrl) lines.push(`[Documentation](${s.docUrl})`);
  return lines.join("\n");
}
