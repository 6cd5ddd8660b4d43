// `check` on embedded texts: each region is read as its kind (fragment.ts) and checked as a
// model is; the diagnostics come back in the host file's offsets. What lies in the wrapper is
// no region's concern and is dropped, but for syntax errors that run into it (an unclosed
// brace), which are reported at the region's end.
import type { Diagnostic, RelatedSpan } from "../../../grammar/src/diagnostics.js";
import type { Span } from "../../../grammar/src/span.js";
import { checkModel } from "../check/index.js";
import { modelFromText } from "../text.js";
import { fragmentModel, regionSpan, type FragmentModel } from "./fragment.js";
import { findRegions } from "./host.js";
import type { EmbeddedRegion, HostLanguage, HostScan } from "./types.js";

/** The code of the note that a text was not checked (an f-string with fields, an unclosed fence). */
export const SKIPPED_CODE = "embedded-skipped";

/** Model-text diagnostics -> the region's host offsets; those about the wrapper alone are dropped. */
export function regionDiagnostics(region: EmbeddedRegion, fragment: FragmentModel, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const hostEnd = region.map.toHostEnd(region.text.length);
  const hostStart = region.map.toHost(0);
  for (const d of diagnostics) {
    if (region.context.attributesFromOutside && d.code === "missing-attribute") continue;
    let span: Span | undefined;
    if (d.span) {
      const inRegion = regionSpan(fragment, d.span);
      if (inRegion) span = region.map.spanToHost(inRegion);
      else if (d.code === "syntax") span = d.span.start < fragment.offset ? { start: hostStart, end: hostStart } : { start: hostEnd, end: hostEnd };
      else continue;
    } else if (region.kind === "model" || d.severity === "error") span = { start: hostStart, end: hostStart };
    else continue;
    const related: RelatedSpan[] = [];
    for (const r of d.related ?? []) {
      const inRegion = regionSpan(fragment, r.span);
      if (inRegion) related.push({ message: r.message, span: region.map.spanToHost(inRegion) });
    }
    const { related: _, where: __, ...rest } = d;
    out.push({ ...rest, span, ...(related.length > 0 && { related }) });
  }
  return out;
}

/** Every problem of one region, in host offsets. */
export function checkRegion(region: EmbeddedRegion): Diagnostic[] {
  const fragment = fragmentModel(region);
  if (fragment.syntax.length > 0) return fragment.syntax.map((d) => ({ ...d, ...(d.span && { span: region.map.spanToHost(d.span) }) }));
  const r = modelFromText(fragment.text);
  const diagnostics = [...r.diagnostics];
  if (r.model) diagnostics.push(...checkModel(r.model, { sourceMap: r.sourceMap }));
  return regionDiagnostics(region, fragment, diagnostics);
}

export interface EmbeddedCheck {
  readonly scan: HostScan;
  /** In host offsets, in file order: each region's problems and a note per skipped text. */
  readonly diagnostics: Diagnostic[];
}

/** Finds and checks every ONNX text of a host file. */
export function checkEmbedded(text: string, language: HostLanguage): EmbeddedCheck {
  const scan = findRegions(text, language);
  const diagnostics: Diagnostic[] = [];
  for (const region of scan.regions) diagnostics.push(...checkRegion(region));
  for (const s of scan.skipped) diagnostics.push({ severity: "info", code: SKIPPED_CODE, message: `ONNX text not checked: ${s.reason}`, span: s.span });
  diagnostics.sort((a, b) => (a.span?.start ?? 0) - (b.span?.start ?? 0));
  return { scan, diagnostics };
}
