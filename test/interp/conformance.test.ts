// Conformance: every libonnx-testdata test (node, pytorch-converted, pytorch-operator, simple,
// real) and every onnx backend node test in test/data, run in-process and compared with the
// expected outputs (rtol 1e-3, atol 1e-7 unless an override says otherwise). Failures must be
// listed in expected-failures.ts with a reason; the pass rates are printed.
import { strict as assert } from "node:assert";
import * as path from "node:path";
import { DEFAULT_TOLERANCE } from "../../core/src/interp/index.js";
import { LIBONNX_DATA, libonnxModelDirs, NODE_TESTS, nodeTestDirs } from "../helpers/paths.js";
import { runCase, type CaseResult } from "./conformance-runner.js";
import { LIBONNX_EXPECTED_FAILURES, NODE_TESTS_EXPECTED_FAILURES, TOLERANCE_OVERRIDES, type ExpectedFailureGroup } from "./expected-failures.js";

interface SuiteReport {
  total: number;
  passed: number;
  unexpected: string[];
  nowPassing: string[];
}

function runSuite(root: string, dirs: readonly string[], expected: readonly ExpectedFailureGroup[]): SuiteReport {
  const listed = new Map<string, string>();
  for (const g of expected) for (const name of g.tests) listed.set(name, g.reason);
  const results: CaseResult[] = dirs.map((dir) => {
    const name = path.relative(root, dir);
    const override = TOLERANCE_OVERRIDES[name];
    return runCase(dir, override ?? DEFAULT_TOLERANCE);
  });
  const unexpected: string[] = [];
  const nowPassing: string[] = [];
  let passed = 0;
  for (const r of results) {
    const name = path.relative(root, r.dir);
    if (r.ok) {
      passed++;
      if (listed.has(name)) nowPassing.push(name);
    } else if (!listed.has(name)) unexpected.push(`${name}: ${r.message}`);
  }
  return { total: results.length, passed, unexpected, nowPassing };
}

function report(label: string, r: SuiteReport): void {
  const rate = ((100 * r.passed) / r.total).toFixed(1);
  console.log(`      ${label}: ${r.passed}/${r.total} passed (${rate}%)`);
}

describe("interpreter conformance", () => {
  it("passes >= 98% of libonnx-testdata, failing only where listed", () => {
    const r = runSuite(LIBONNX_DATA, libonnxModelDirs(), LIBONNX_EXPECTED_FAILURES);
    report("libonnx-testdata", r);
    assert.deepEqual(r.unexpected, [], "unexpected failures");
    assert.deepEqual(r.nowPassing, [], "listed as expected failures but passing: remove them from the list");
    assert.ok(r.passed / r.total >= 0.98, `pass rate ${r.passed}/${r.total} is below 98%`);
  });

  it("runs the onnx 1.23 backend node tests, failing only where listed", () => {
    const r = runSuite(NODE_TESTS, nodeTestDirs(), NODE_TESTS_EXPECTED_FAILURES);
    report("onnx node tests", r);
    assert.deepEqual(r.unexpected, [], "unexpected failures");
    assert.deepEqual(r.nowPassing, [], "listed as expected failures but passing: remove them from the list");
  });

  it("lists no test twice and gives every group a reason", () => {
    for (const groups of [LIBONNX_EXPECTED_FAILURES, NODE_TESTS_EXPECTED_FAILURES]) {
      const seen = new Set<string>();
      for (const g of groups) {
        assert.ok(g.reason.trim().length > 10, "a group without a reason");
        for (const t of g.tests) {
          assert.ok(!seen.has(t), `${t} is listed twice`);
          seen.add(t);
        }
      }
    }
  });
});
