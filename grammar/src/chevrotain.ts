// Chevrotain, loaded from its single-file bundle. The package entry pulls in ~650 lodash-es
// modules (about 0.7 s of every CLI start); the bundle is the same library and loads in ~40 ms.
// The package exports only ".", so the bundle is found next to the resolved entry, with the
// entry itself as the fallback.
import type * as Chevrotain from "chevrotain";

async function load(): Promise<typeof Chevrotain> {
  try {
    return (await import(new URL("../chevrotain.min.mjs", import.meta.resolve("chevrotain")).href)) as typeof Chevrotain;
  } catch {
    return await import("chevrotain");
  }
}

const chevrotain = await load();

export const { createToken, createSyntaxDiagramsCode, EmbeddedActionsParser, EOF, Lexer, LLkLookaheadStrategy } = chevrotain;
export type Lexer = Chevrotain.Lexer;
export type EmbeddedActionsParser = Chevrotain.EmbeddedActionsParser;
export type { CustomPatternMatcherReturn, IToken, ParserMethod, TokenType } from "chevrotain";
