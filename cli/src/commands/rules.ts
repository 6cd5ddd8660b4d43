// `onnxtxt rules [CODE]`: lists every diagnostic code with its severity and summary, or prints
// one code's page (the text of docs/rules/CODE.md).
import { closeRuleCodes, RULE_DOCS, ruleDocOf, rulePageText } from "../../../core/src/check/rule-docs.js";
import { didYouMean } from "../../../core/src/check/suggest.js";
import { parseArgs, UsageError } from "../args.js";
import type { Command } from "../command.js";

const USAGE = `usage: onnxtxt rules [CODE]

Without CODE, lists every code check and the editor report: code, severity, summary.
With CODE, prints its page: what it finds, why it matters, an example and the fix
(the same text as docs/rules/CODE.md).`;

export const rulesCommand: Command = {
  name: "rules",
  summary: "list the diagnostic codes, or explain one",
  usage: USAGE,
  run(argv, io) {
    const args = parseArgs(argv, {});
    if (args.positional.length > 1) throw new UsageError("give at most one code");
    const code = args.positional[0];
    if (code === undefined) {
      const width = Math.max(...RULE_DOCS.map((r) => r.code.length));
      const sevWidth = Math.max(...RULE_DOCS.map((r) => r.severity.length));
      for (const r of RULE_DOCS) io.out(`${r.code.padEnd(width)}  ${r.severity.padEnd(sevWidth)}  ${r.summary}\n`);
      return 0;
    }
    const doc = ruleDocOf(code);
    if (!doc) {
      const close = closeRuleCodes(code);
      io.err(`onnxtxt rules: no code '${code}'${close.length > 0 ? `; ${didYouMean(close[0]!)}` : ""} (onnxtxt rules lists them)\n`);
      return 2;
    }
    io.out(rulePageText(doc));
    return 0;
  },
};
