// `onnxtxt rules`, and the links from diagnostics to the rule pages: the language server's
// codeDescription.href and SARIF's helpUri.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { REPOSITORY_URL, RULE_DOCS, RULE_DOCS_DIR } from "../../core/src/check/rule-docs.js";
import { runCli } from "../helpers/cli.js";
import type { LspClient } from "../server/lsp-client.js";
import { close, type LspDiagnostic, useServer } from "../server/lsp-helpers.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const PAGE_URL = (code: string) => `${REPOSITORY_URL}/blob/main/${RULE_DOCS_DIR}/${code}.md`;

const BAD = `<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x, float[2] b) => (float[2] y) {
  y = Relus (x)
}
`;

describe("rules: the command and the links", () => {
  it("the repository URL agrees with package.json once that names one", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { repository?: string | { url: string } };
    if (pkg.repository === undefined) return;
    const url = typeof pkg.repository === "string" ? pkg.repository : pkg.repository.url;
    assert.equal(url.replace(/^git\+/, "").replace(/\.git$/, ""), REPOSITORY_URL);
  });

  it("onnxtxt rules lists every code with its severity and summary", () => {
    const r = runCli(["rules"]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.length, RULE_DOCS.length);
    for (const [i, doc] of RULE_DOCS.entries())
      assert.match(lines[i]!, new RegExp(`^${doc.code} +${doc.severity} +${doc.summary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  });

  it("onnxtxt rules CODE prints the page docs/rules/CODE.md; an unknown code gets a did-you-mean", () => {
    const r = runCli(["rules", "unused-input"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, fs.readFileSync(path.join(REPO, RULE_DOCS_DIR, "unused-input.md"), "utf8"));
    const wrong = runCli(["rules", "unused-inptu"]);
    assert.equal(wrong.code, 2);
    assert.equal(wrong.stdout, "");
    assert.match(wrong.stderr, /no code 'unused-inptu'; did you mean 'unused-input'\?/);
  });

  it("SARIF rules carry helpUri to the page and the summary", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-rules-"));
    try {
      const file = path.join(dir, "bad.onnxtxt");
      fs.writeFileSync(file, BAD);
      const sarif = JSON.parse(runCli(["check", "--format", "sarif", file]).stdout) as {
        runs: { tool: { driver: { rules: { id: string; helpUri?: string; shortDescription?: { text: string } }[] } }; results: { ruleId: string }[] }[];
      };
      const rules = sarif.runs[0]!.tool.driver.rules;
      assert.deepEqual(rules.map((x) => x.id).sort(), ["unknown-op", "unused-input"]);
      for (const rule of rules) {
        assert.equal(rule.helpUri, PAGE_URL(rule.id));
        assert.ok(fs.existsSync(path.join(REPO, RULE_DOCS_DIR, `${rule.id}.md`)), "the link's page exists");
        assert.ok(rule.shortDescription && rule.shortDescription.text.length > 0);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("rules: the language server links each diagnostic to its page", function () {
  let client: LspClient;
  useServer((c) => (client = c));

  it("codeDescription.href is the page of the diagnostic's code", async () => {
    const uri = "file:///rule-links.onnxtxt";
    const checked = (p: unknown) => {
      const q = p as { uri?: string; diagnostics?: LspDiagnostic[] };
      return q.uri === uri && (q.diagnostics ?? []).some((d) => d.code === "unknown-op");
    };
    const published = client.waitFor("textDocument/publishDiagnostics", checked);
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "onnxtxt", version: 1, text: BAD } });
    const diagnostics = ((await published) as { diagnostics: (LspDiagnostic & { codeDescription?: unknown })[] }).diagnostics;
    close(client, uri);
    const codes = diagnostics.map((d) => d.code).sort();
    assert.deepEqual(codes, ["unknown-op", "unused-input"]);
    for (const d of diagnostics) assert.deepEqual(d.codeDescription, { href: PAGE_URL(String(d.code)) });
  });
});
