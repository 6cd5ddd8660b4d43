// `check --format github`: one GitHub Actions workflow command per diagnostic
// (`::error file=F,line=L,col=C,endLine=..,endColumn=..,title=CODE::MESSAGE`), which the
// Actions log shows as an annotation on the line. Escaping as GitHub's toolkit does it: `%`, CR
// and LF in the message; those and `:` and `,` in property values.
import { jsonDiagnostics, type FileDiagnostics } from "./diagnostic-formats.js";

const COMMAND = { error: "error", warning: "warning", info: "notice", hint: "notice" } as const;

export function escapeData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export function githubAnnotations(files: readonly FileDiagnostics[]): string {
  let out = "";
  for (const d of jsonDiagnostics(files)) {
    const props: [string, string | number][] = [["file", d.file]];
    if (d.line !== undefined) props.push(["line", d.line], ["col", d.column!], ["endLine", d.endLine!], ["endColumn", d.endColumn!]);
    props.push(["title", d.code]);
    const message = d.where ? `${d.message} (${d.where})` : d.message;
    out += `::${COMMAND[d.severity]} ${props.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(",")}::${escapeData(message)}\n`;
  }
  return out;
}
