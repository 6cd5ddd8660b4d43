// Where the test data lives. Missing data is a failure, not a skip: CI installs it.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file runs from dist/test/helpers). */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const SHARED = path.resolve(REPO, "../shared");
export const LIBONNX_DATA = "/usr/share/libonnx-testdata/data";
export const NODE_TESTS = path.join(SHARED, "onnx/node-tests");
export const PRINTED = path.join(SHARED, "onnx/printed");
export const LIGHT = path.join(SHARED, "testdata/light");
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
  return modelDirs(requireDir(NODE_TESTS, "../shared/onnx/node-tests"));
}
