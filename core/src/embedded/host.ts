// Which host language a file is, by its name or an editor's language id, and its regions.
import { findCppRegions } from "./cpp.js";
import { findJavaScriptRegions } from "./javascript.js";
import { findMarkdownRegions } from "./markdown.js";
import { findPythonRegions } from "./python.js";
import type { HostLanguage, HostScan } from "./types.js";

const BY_EXTENSION: Readonly<Record<string, HostLanguage>> = {
  py: "python",
  pyi: "python",
  c: "cpp",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  "c++": "cpp",
  h: "cpp",
  hh: "cpp",
  hpp: "cpp",
  hxx: "cpp",
  cu: "cpp",
  md: "markdown",
  markdown: "markdown",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  ts: "javascript",
  mts: "javascript",
  cts: "javascript",
  tsx: "javascript",
};

const BY_LANGUAGE_ID: Readonly<Record<string, HostLanguage>> = {
  python: "python",
  c: "cpp",
  cpp: "cpp",
  "cuda-cpp": "cpp",
  markdown: "markdown",
  javascript: "javascript",
  typescript: "javascript",
  javascriptreact: "javascript",
  typescriptreact: "javascript",
};

/** The host language of a file name (`test_shapes.py` -> python), or undefined for other files. */
export function hostLanguageOfPath(path: string): HostLanguage | undefined {
  const dot = path.lastIndexOf(".");
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (dot <= slash + 1) return undefined;
  return BY_EXTENSION[path.slice(dot + 1).toLowerCase()];
}

/** The host language of an LSP language id, or undefined. */
export function hostLanguageOfId(languageId: string): HostLanguage | undefined {
  return BY_LANGUAGE_ID[languageId];
}

/** Every ONNX text embedded in `text`, and the texts skipped because they are made at run time. */
export function findRegions(text: string, language: HostLanguage): HostScan {
  switch (language) {
    case "python":
      return findPythonRegions(text);
    case "cpp":
      return findCppRegions(text);
    case "markdown":
      return findMarkdownRegions(text);
    case "javascript":
      return findJavaScriptRegions(text);
  }
}
