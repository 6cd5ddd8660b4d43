// Seeded damage in every region of every clean fixture: a misspelt op, an undefined name and a
// syntax error, each reported at the host file's LINE:COL of the damaged token. The expected
// position is where the test put the damage (found by a regular expression on the host text),
// counted into LINE:COL here, not taken from the code under test.
import { strict as assert } from "node:assert";
import type { Diagnostic } from "../../grammar/src/diagnostics.js";
import { checkEmbedded, findRegions, SKIPPED_CODE } from "../../core/src/embedded/index.js";
import { CLEAN, fixture, lineCol, opCalls, splice, type Fixture } from "./fixtures.js";

function errorsOf(host: string, f: Fixture): Diagnostic[] {
  return checkEmbedded(host, f.language).diagnostics.filter((d) => d.code !== SKIPPED_CODE);
}

function where(host: string, d: Diagnostic): string {
  return `${lineCol(host, d.span!.start)} ${d.code} ${JSON.stringify(host.slice(d.span!.start, d.span!.end))}`;
}

describe("embedded: seeded damage at the host file's line and column", () => {
  for (const f of CLEAN) {
    describe(f.name, () => {
      const scan = findRegions(f.text, f.language);

      it("the clean file has no diagnostics at all (names from outside a node list and @refs included)", () => {
        assert.deepEqual(
          errorsOf(f.text, f).map((d) => `${where(f.text, d)} ${d.message}`),
          [],
        );
      });

      for (const region of scan.regions) {
        const calls = opCalls(f.text, region.literal.content.start, region.literal.content.end);
        const label = `region ${region.index} (${region.kind}, ${region.origin})`;

        it(`${label}: a misspelt op`, () => {
          const call = calls[0];
          assert.ok(call, "the region has an op call");
          const host = splice(f.text, call.op + call.name.length, 0, "Qz");
          const found = errorsOf(host, f);
          assert.deepEqual(
            found.map((d) => where(host, d)),
            [`${lineCol(host, call.op)} unknown-op ${JSON.stringify(`${call.name}Qz`)}`],
          );
        });

        it(`${label}: a syntax error`, () => {
          // inside the parentheses: `.Add("y = $Op (x)")` would no longer look like a node
          const at = calls[0]!.paren + 1;
          const host = splice(f.text, at, 0, "$");
          const first = errorsOf(host, f).filter((d) => d.severity === "error")[0];
          assert.ok(first, "an error");
          assert.equal(first.code, "syntax");
          assert.equal(lineCol(host, first.span!.start), lineCol(host, at));
        });

        const withArg = calls.find((c) => c.arg !== undefined);
        if (!withArg) return;
        const arg = withArg.arg!;
        const nodeList = region.kind === "node" || region.kind === "nodes";
        it(`${label}: an undefined name is ${nodeList ? "taken as given by the host" : "reported"}`, () => {
          const host = splice(f.text, arg.at, arg.text.length, "nowhere_defined");
          const found = errorsOf(host, f);
          if (nodeList)
            assert.deepEqual(
              found.map((d) => where(host, d)),
              [],
            );
          else
            assert.deepEqual(
              found.filter((d) => d.severity === "error").map((d) => where(host, d)),
              [`${lineCol(host, arg.at)} undefined-value "nowhere_defined"`],
            );
        });
      }
    });
  }

  it("C++: a FunctionBuilder.Add string that no longer looks like a node is no region (.Add is a common name)", () => {
    const f = fixture("clean.cc", "cpp");
    const host = f.text.replace("Zero = Constant", "Zero = $Constant");
    assert.equal(findRegions(host, "cpp").regions.length, findRegions(f.text, "cpp").regions.length - 1);
    assert.deepEqual(errorsOf(host, f), []);
  });

  it("C++: a FunctionBody takes its schema's opset (CastLike is not in opset 13) or the explicit one", () => {
    const f = fixture("clean.cc", "cpp");
    const at13 = f.text.indexOf("AbsInput = Abs (input)");
    const at18 = f.text.indexOf("Y = Exp (Neg1)");
    const line = "C = CastLike (X, X)\n";
    const host13 = splice(f.text, at13, 0, line.replace("X, X", "input, input"));
    assert.deepEqual(
      errorsOf(host13, f).map((d) => where(host13, d)),
      [`${lineCol(host13, at13 + 4)} op-not-in-opset "CastLike"`],
    );
    const host18 = splice(f.text, at18, 0, line);
    assert.deepEqual(errorsOf(host18, f), []);
  });

  it("C++: FunctionBuilder.Add with attribute arguments may leave required attributes out; without them it may not", () => {
    const f = fixture("clean.cc", "cpp");
    const args = ', "to", int64_t(TensorProto_DataType_INT64)';
    assert.ok(f.text.includes(args));
    const host = f.text.replace(args, "");
    const cast = host.indexOf("Cast (X)");
    assert.deepEqual(
      errorsOf(host, f).map((d) => `${lineCol(host, d.span!.start)} ${d.code}`),
      [`${lineCol(host, cast)} missing-attribute`],
    );
  });

  it("Python: @attr references in a node list are parameters; in a model they are errors", () => {
    const f = fixture("clean.py", "python");
    assert.deepEqual(errorsOf(f.text, f), []);
    const host = f.text.replace('y = Relu(x)\n}\n""")', 'y = LeakyRelu <alpha: float = @alpha> (x)\n}\n""")');
    assert.notEqual(host, f.text);
    const at = host.indexOf("@alpha");
    const found = errorsOf(host, f);
    assert.ok(
      found.some((d) => d.severity === "error" && d.span!.start >= at - 20 && d.span!.start <= at + 6),
      found.map((d) => where(host, d)).join("\n"),
    );
  });
});
