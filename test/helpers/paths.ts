// Where the test data lives: in the repository under test/data (see its READMEs), the larger
// folders as .tar.xz archives unpacked on first use. Missing data is a failure, not a skip.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureUnpacked } from "./test-data.js";

/** The repository root (this file runs from dist/test/helpers). */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const TEST_DATA = path.join(REPO, "test/data");
/** Former name of TEST_DATA (the data used to live in ../shared); `onnx/` below it has the same layout. */
export const SHARED = TEST_DATA;
export const LIBONNX_DATA = "/usr/share/libonnx-testdata/data";
/** onnx 1.23.1's operator schemas (what scripts/gen-schemas.mjs reads). */
export const SCHEMAS_JSON = path.join(TEST_DATA, "onnx/schemas.json");
export const NODE_TESTS = ensureUnpacked(path.join(TEST_DATA, "onnx/node-tests"));
export const PRINTED = ensureUnpacked(path.join(TEST_DATA, "onnx/printed"));
export const LIGHT = path.join(TEST_DATA, "light");
export const CLI = path.join(REPO, "bin/onnxtxt.js");

export function requireDir(dir: string, hint: string): string {
  if (!fs.existsSync(dir)) throw new Error(`test data missing: ${dir} (${hint})`);
  return dir;
}

/** Every folder below `root` that holds a model.onnx, sorted. */
export function modelDirs(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string): void => {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name === "model.onnx")) out.push(dir);
    for (const e of entries) if (e.isDirectory()) visit(path.join(dir, e.name));
  };
  visit(root);
  return out.sort();
}

export function libonnxModelDirs(): string[] {
  return modelDirs(requireDir(LIBONNX_DATA, "apt-get install libonnx-testdata"));
}

export function nodeTestDirs(): string[] {
  return modelDirs(requireDir(NODE_TESTS, "test/data/onnx/node-tests.tar.xz"));
}

/** An environment for git in tests: no user or system config, a fixed author, no pager. */
export function gitTestEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
    GIT_PAGER: "cat",
    ...extra,
  };
}
