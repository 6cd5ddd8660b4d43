// The shape of each request's and notification's params, checked before a handler runs: a
// malformed message (`position: null`, `params: "x"`, `contentChanges: "zz"`) gets a one-line
// InvalidParams answer (or, for a notification, a one-line log entry), never a stack trace.

import type { MessageStrategy } from "vscode-languageserver";

type Check = (value: unknown) => string | undefined;

/**
 * Marks params that are not an object (`null`, `"x"`). The library reads `params.workDoneToken`
 * before a handler runs, which fails on null; so such params are wrapped in an object that
 * carries this mark, and paramsProblem reports them.
 */
const NOT_AN_OBJECT = Symbol("params that are not an object");

export const wrapMalformedParams: MessageStrategy = {
  handleMessage(message, next) {
    const m = message as { method?: unknown; params?: unknown };
    if (typeof m.method === "string" && /^(textDocument|workspace)\//.test(m.method) && !isObject(m.params)) {
      m.params = { [NOT_AN_OBJECT]: true };
    }
    next(message);
  },
};

/** `key` + a nested problem: `textDocument.uri must be a string`, `contentChanges[0] must be ...`. */
function within(key: string, problem: string): string {
  if (problem.startsWith("must")) return `${key} ${problem}`;
  return problem.startsWith("[") ? `${key}${problem}` : `${key}.${problem}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const isIndex = (v: unknown): boolean => typeof v === "number" && Number.isInteger(v) && v >= 0;

const position: Check = (v) => (isObject(v) && isIndex(v.line) && isIndex(v.character) ? undefined : "must be { line, character } with non-negative integers");

const range: Check = (v) => {
  if (!isObject(v)) return "must be { start, end }";
  const p = position(v.start) ?? position(v.end);
  return p === undefined ? undefined : "must be { start, end } with positions { line, character } of non-negative integers";
};

const string: Check = (v) => (typeof v === "string" ? undefined : "must be a string");
const integer: Check = (v) => (typeof v === "number" && Number.isInteger(v) ? undefined : "must be an integer");

function object(fields: Readonly<Record<string, Check>>, optional: readonly string[] = []): Check {
  return (v) => {
    if (!isObject(v)) return "must be an object";
    for (const [key, check] of Object.entries(fields)) {
      if (v[key] === undefined && optional.includes(key)) continue;
      const problem = check(v[key]);
      if (problem) return within(key, problem);
    }
    return undefined;
  };
}

function arrayOf(check: Check): Check {
  return (v) => {
    if (!Array.isArray(v)) return "must be an array";
    for (let i = 0; i < v.length; i++) {
      const problem = check(v[i]);
      if (problem) return within(`[${i}]`, problem);
    }
    return undefined;
  };
}

const document = object({ uri: string });
const atPosition = { textDocument: document, position };

const SHAPES: Readonly<Record<string, Check>> = {
  didOpen: object({ textDocument: object({ uri: string, languageId: string, version: integer, text: string }) }),
  didChange: object({
    textDocument: object({ uri: string, version: integer }),
    contentChanges: arrayOf(object({ text: string, range }, ["range"])),
  }),
  didClose: object({ textDocument: document }),
  hover: object(atPosition),
  definition: object(atPosition),
  references: object({ ...atPosition, context: object({ includeDeclaration: (v) => (typeof v === "boolean" ? undefined : "must be a boolean") }) }),
  documentHighlight: object(atPosition),
  prepareRename: object(atPosition),
  rename: object({ ...atPosition, newName: string }),
  completion: object(atPosition),
  signatureHelp: object(atPosition),
  documentSymbol: object({ textDocument: document }),
  workspaceSymbol: object({ query: string }),
  semanticTokens: object({ textDocument: document }),
  foldingRange: object({ textDocument: document }),
  inlayHint: object({ textDocument: document, range }),
  formatting: object({ textDocument: document }),
  rangeFormatting: object({ textDocument: document, range }),
  codeAction: object({ textDocument: document, range, context: object({ diagnostics: arrayOf(object({ range })) }) }),
  codeLens: object({ textDocument: document }),
  executeCommand: object({ command: string }),
};

/** What is wrong with `params` of the request or notification `name`, or undefined. */
export function paramsProblem(name: string, params: unknown): string | undefined {
  if (isObject(params) && NOT_AN_OBJECT in params) return "params must be an object";
  const check = SHAPES[name];
  if (!check) return undefined;
  const problem = check(params);
  return problem === undefined ? undefined : within("params", problem);
}
