// chevrotain.ts for esbuild bundles (the CLI, the language server, the VS Code extension): the
// exports the bundled code uses, from a static import that the bundler inlines (tree-shaken)
// and that needs no top-level await (the extension's bundle is CommonJS).
// scripts/esbuild-chevrotain.ts swaps it in for chevrotain.ts.
export { createToken, EmbeddedActionsParser, EOF, Lexer, LLkLookaheadStrategy } from "chevrotain";
export type { CustomPatternMatcherReturn, IToken, ParserMethod, TokenType } from "chevrotain";
