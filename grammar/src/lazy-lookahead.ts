// Chevrotain's LL(k) lookahead, built when a decision is first taken instead of for every
// decision at start-up: most decisions of this grammar are taken by the rules themselves (see
// parser.ts) and their recorded ORs never run, and a CLI run parses with a fraction of the rest.
import { LLkLookaheadStrategy } from "./chevrotain.js";

type Strategy = InstanceType<typeof LLkLookaheadStrategy>;
type AlternationOptions = Parameters<Strategy["buildLookaheadForAlternation"]>[0];
type OptionalOptions = Parameters<Strategy["buildLookaheadForOptional"]>[0];
type AlternationLookahead = ReturnType<Strategy["buildLookaheadForAlternation"]>;
type OptionalLookahead = ReturnType<Strategy["buildLookaheadForOptional"]>;

export function lazyLookahead(maxLookahead: number): Strategy {
  const eager = new LLkLookaheadStrategy({ maxLookahead });
  const lazy = Object.create(eager) as Strategy;
  lazy.buildLookaheadForAlternation = (options: AlternationOptions): AlternationLookahead => {
    let built: AlternationLookahead | undefined;
    return function (this: unknown, orAlts) {
      built ??= eager.buildLookaheadForAlternation(options);
      return built.call(this, orAlts);
    };
  };
  lazy.buildLookaheadForOptional = (options: OptionalOptions): OptionalLookahead => {
    let built: OptionalLookahead | undefined;
    return function (this: unknown) {
      built ??= eager.buildLookaheadForOptional(options);
      return built.call(this);
    };
  };
  return lazy;
}
