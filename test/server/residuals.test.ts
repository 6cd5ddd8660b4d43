// The running language server publishes for residual comments exactly what `onnxtxt check`
// prints: broken JSON, a misspelt kind, a stale residual, a residual that names an unknown field.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCli } from "../helpers/cli.js";
import type { LspClient } from "./lsp-client.js";
import { useServer, type LspDiagnostic } from "./lsp-helpers.js";

const BASE = `#@model {"@node_domain":"unset"}
<ir_version: 10, opset_import: ["" : 21]>
g (float[3] x) => (float[3] y) <
  #@tensor {"@digest":"00000000","@nan":{"0":"7fc00001"},"doc_string":"w"}
  float[3] w = {nan, 2.0, 3.0}
> {
  #@todo: an ordinary comment
  y = Add (x, w)
}
`;

const CASES: Record<string, string> = {
  stale: BASE,
  "broken JSON": BASE.replace('#@model {"@node_domain":"unset"}', '#@model {"@node_domain":"unset"'),
  "misspelt kind": BASE.replace("#@todo: an ordinary comment", '#@nod {"doc_string":"d"}'),
  "unknown field": BASE.replace("#@todo: an ordinary comment", '#@node {"no_such_field":1}'),
};

const SEVERITY = ["", "error", "warning", "info", "hint"];

function asCliLine(file: string, d: LspDiagnostic): string {
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${SEVERITY[d.severity ?? 1]}: ${d.message} [${d.code}]`;
}

describe("language server: residual problems as check reports them", function () {
  this.timeout(60_000);
  let client: LspClient;
  useServer((c) => {
    client = c;
  });

  for (const [name, text] of Object.entries(CASES)) {
    it(name, async () => {
      const work = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-ls-residual-"));
      try {
        const file = path.join(work, "m.onnxtxt");
        fs.writeFileSync(file, text);
        const expected = runCli(["check", file]).stderr.split("\n").filter(Boolean).sort();
        assert.ok(
          expected.some((l) => /\[(extension|residual-stale)\]$/.test(l)),
          expected.join("\n"),
        );
        const uri = `file://${file}`;
        // The first publication may be the early (syntax-only) one: wait for the complete one.
        const published = client.waitFor("textDocument/publishDiagnostics", (p) => {
          const q = p as { uri: string; diagnostics: LspDiagnostic[] };
          return q.uri === uri && q.diagnostics.length === expected.length;
        });
        client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text } });
        const got = ((await published) as { diagnostics: LspDiagnostic[] }).diagnostics.map((d) => asCliLine(file, d)).sort();
        assert.deepEqual(got, expected);
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
    });
  }
});
