// The rule opset-below-minimum: a model text whose default-domain opset_import is older than the
// configuration's `min-opset`. Read from the model header's text (where the import is written, so
// the warning points at it) without parsing the whole document again.
import type { Diagnostic } from "../diagnostics.js";

/** `text` with every `#` comment blanked (offsets kept), so commented-out headers do not count. */
function withoutComments(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === "\\") {
        out += c + (text[i + 1] ?? "");
        i++;
        continue;
      }
      if (c === '"') inString = false;
      out += c;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "#") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      out += " ".repeat(stop - i);
      i = stop - 1;
    } else out += c;
  }
  return out;
}

/** The default domain's opset in the model header, with the span of its entry. */
function defaultOpset(text: string): { version: number; start: number; end: number } | undefined {
  const code = withoutComments(text.slice(0, Math.min(text.length, 1 << 16)));
  const list = /\bopset_import\s*:\s*\[([^\]]*)\]/.exec(code);
  if (!list) return undefined;
  const base = list.index + list[0].indexOf("[") + 1;
  const entry = /"(|ai\.onnx)"\s*:\s*(\d+)/.exec(list[1]!);
  if (!entry) return undefined;
  return { version: Number(entry[2]), start: base + entry.index, end: base + entry.index + entry[0].length };
}

/** The warning for a model text that imports an older default-domain opset than `minOpset`. */
export function minimumOpsetDiagnostics(text: string, minOpset: number): Diagnostic[] {
  const found = defaultOpset(text);
  if (!found || found.version >= minOpset) return [];
  return [
    {
      severity: "warning",
      code: "opset-below-minimum",
      message: `the model imports opset ${found.version} of the default domain; the configuration asks for ${minOpset} or newer (min-opset); 'onnxtxt upgrade --opset ${minOpset} IN OUT' converts it`,
      span: { start: found.start, end: found.end },
    },
  ];
}
