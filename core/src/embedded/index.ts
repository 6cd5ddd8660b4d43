// ONNX texts embedded in Python, C/C++, Markdown and JavaScript files: finding them, reading
// each as its kind, checking and formatting them in place, with every offset in the host file.
export type { EmbeddedContext, EmbeddedKind, EmbeddedRegion, HostLanguage, HostLiteral, HostScan, KindSource, SkippedRegion } from "./types.js";
export { EMBEDDED_KINDS } from "./types.js";
export { OffsetMap } from "./offset-map.js";
export { findRegions, hostLanguageOfId, hostLanguageOfPath } from "./host.js";
export { fragmentModel, regionSpan, modelOffset, type FragmentModel } from "./fragment.js";
export { checkEmbedded, checkRegion, regionDiagnostics, SKIPPED_CODE, type EmbeddedCheck } from "./check.js";
export { formatEmbedded, formatRegion, type EmbeddedFormat, type RegionFormat } from "./format.js";
export { sniffKind } from "./sniff.js";
export { fragmentGraphModel } from "./fragment-graph.js";
