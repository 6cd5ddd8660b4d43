// The TextMate grammar: generated from the lexer's table and committed (a stale file fails),
// and, tokenized by vscode-textmate + Oniguruma, it gives each part of the syntax its scope.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { ELEMENT_TYPES } from "../../grammar/src/index.js";
import { GRAMMAR_FILE, generatedGrammarFiles } from "../../scripts/gen-textmate.js";
import { PRINTED, REPO, requireDir } from "../helpers/paths.js";
import { EXPECTED_SCOPE, rolesOf, type Role } from "./ast-roles.js";
import { highlight } from "./textmate-helper.js";

const SAMPLE = `# A model with every kind of token.
<ir_version: 10, opset_import: ["" : 21, "com.acme" : 1], producer_name: "by \\"hand\\"">
main (float[N, 8] x, seq(int64[?]) ids) => (float[N, 8] y) <float[2] w = {0.5, -3}> {
  [first] h = com.acme.Shift:v2 <amount = 1e-5, mode: string = "fast", axes: ints = [0, -1]> (x, w)
  y = If (flag) <then_branch = branch () => (float[N, 8] t) {
      t = Identity (h)
    }, else_branch = other () => (float[N, 8] e) { e = Neg (h) }>
  z = Constant <value = float[2] {inf, nan}, dtype: type_proto = map(int64, float)> ()
  r = Relu <alpha = @alpha> (y)  # trailing comment
}
`;

describe("TextMate grammar", () => {
  it("and its injection grammars are up to date with the lexer's token table", () => {
    const files = generatedGrammarFiles();
    assert.equal(files.length, 4);
    for (const { file, text } of files) {
      const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
      assert.equal(current, text, `${path.relative(REPO, file)} is stale: run node dist/scripts/gen-textmate.js`);
    }
  });

  it("lists every element type the lexer knows", () => {
    const grammar = fs.readFileSync(GRAMMAR_FILE, "utf8");
    for (const t of ELEMENT_TYPES) assert.ok(grammar.includes(t), t);
  });

  describe("scopes on a sample", () => {
    const cases: [needle: string, occurrence: number, scope: string][] = [
      ["# A model", 0, "comment.line.number-sign.onnxtxt"],
      ["# trailing", 0, "comment.line.number-sign.onnxtxt"],
      ["ir_version", 0, "keyword.other.header.onnxtxt"],
      ["opset_import", 0, "keyword.other.header.onnxtxt"],
      ['"com.acme"', 0, "punctuation.definition.string.begin.onnxtxt"],
      ['com.acme"', 0, "string.quoted.double.onnxtxt"],
      ['\\"hand', 0, "constant.character.escape.onnxtxt"],
      ["main", 0, "entity.name.type.graph.onnxtxt"],
      ["float[N", 0, "storage.type.primitive.onnxtxt"],
      ["seq(", 0, "storage.type.constructor.onnxtxt"],
      ["int64[?]", 0, "storage.type.primitive.onnxtxt"],
      ["map(", 0, "storage.type.constructor.onnxtxt"],
      ["N, 8]", 0, "variable.other.dimension.onnxtxt"],
      ["8] x", 0, "constant.numeric.integer.onnxtxt"],
      ["?]", 0, "constant.language.unknown-dimension.onnxtxt"],
      ["x, seq", 0, "variable.other.value.onnxtxt"],
      ["w = {", 0, "variable.other.value.onnxtxt"],
      ["0.5", 0, "constant.numeric.float.onnxtxt"],
      ["-3", 0, "constant.numeric.integer.onnxtxt"],
      ["1e-5", 0, "constant.numeric.float.onnxtxt"],
      ["-1]", 0, "constant.numeric.integer.onnxtxt"],
      ["inf,", 0, "constant.numeric.float.onnxtxt"],
      ["nan}", 0, "constant.numeric.float.onnxtxt"],
      ["first", 0, "entity.name.label.onnxtxt"],
      ["com.acme.Shift", 0, "entity.name.namespace.onnxtxt"],
      ["Shift", 0, "entity.name.function.operator.onnxtxt"],
      ["v2", 0, "entity.name.function.overload.onnxtxt"],
      ["amount", 0, "entity.other.attribute-name.onnxtxt"],
      ["mode:", 0, "entity.other.attribute-name.onnxtxt"],
      ["string =", 0, "storage.type.attribute.onnxtxt"],
      ["ints", 0, "storage.type.attribute.onnxtxt"],
      ["type_proto", 0, "storage.type.attribute.onnxtxt"],
      ["If", 0, "entity.name.function.operator.onnxtxt"],
      ["then_branch", 0, "entity.other.attribute-name.onnxtxt"],
      ["branch ()", 0, "entity.name.type.graph.onnxtxt"],
      ["other ()", 0, "entity.name.type.graph.onnxtxt"],
      ["Identity", 0, "entity.name.function.operator.onnxtxt"],
      ["t = Identity", 0, "variable.other.value.onnxtxt"],
      ["Neg", 0, "entity.name.function.operator.onnxtxt"],
      ["Constant", 0, "entity.name.function.operator.onnxtxt"],
      ["float[2] {", 0, "storage.type.primitive.onnxtxt"],
      ["@alpha", 0, "keyword.operator.reference.onnxtxt"],
      ["alpha>", 0, "variable.other.reference.onnxtxt"],
      ["Relu", 0, "entity.name.function.operator.onnxtxt"],
      ["=>", 0, "keyword.operator.arrow.onnxtxt"],
      ["(y)", 0, "punctuation.section.brackets.onnxtxt"],
    ];
    for (const [needle, occurrence, scope] of cases) {
      it(`${needle} -> ${scope}`, async () => {
        const h = await highlight(SAMPLE);
        const scopes = h.scopesOf(needle, occurrence);
        assert.ok(scopes.includes(scope), `scopes: ${scopes.join(" ")}`);
      });
    }
  });

  it("scopes every role the parser finds in the examples and the printed corpus", async function () {
    this.timeout(300_000);
    const files = [
      ...fs
        .readdirSync(path.join(REPO, "examples"))
        .filter((f) => f.endsWith(".onnxtxt"))
        .map((f) => path.join(REPO, "examples", f)),
      ...fs
        .readdirSync(requireDir(PRINTED, "test/data/onnx/printed.tar.xz"))
        .filter((f) => f.endsWith(".onnxtxt"))
        .map((f) => path.join(PRINTED, f)),
    ];
    const counts = new Map<Role, number>();
    const misses: string[] = [];
    let parsedFiles = 0;
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      const roles = rolesOf(text);
      if (!roles) continue;
      parsedFiles++;
      const h = await highlight(text);
      for (const { role, offset } of roles) {
        counts.set(role, (counts.get(role) ?? 0) + 1);
        const scopes = h.scopesAt(offset);
        if (!scopes.some((s) => s.startsWith(EXPECTED_SCOPE[role]))) {
          const line = text.slice(text.lastIndexOf("\n", offset) + 1, text.indexOf("\n", offset) >>> 0).trim();
          misses.push(`${path.basename(file)}: ${role} at '${text.slice(offset, offset + 16)}' got ${scopes.slice(1).join(" ")} in: ${line.slice(0, 120)}`);
        }
      }
    }
    assert.ok(parsedFiles > 1000, `only ${parsedFiles} corpus files parsed`);
    for (const role of Object.keys(EXPECTED_SCOPE) as Role[]) assert.ok((counts.get(role) ?? 0) > 0, `the corpus has no ${role}`);
    assert.deepEqual(misses.slice(0, 20), [], `${misses.length} misses`);
  });
});
