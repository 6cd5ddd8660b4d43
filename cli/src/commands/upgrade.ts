// `onnxtxt upgrade` and `onnxtxt downgrade`: `convert --opset N` under the names users look for.
// upgrade defaults to the newest opset; downgrade needs --opset.
import { UsageError } from "../args.js";
import type { Command } from "../command.js";
import { latestOpsetVersion } from "../../../core/src/schema/index.js";
import { runConvert } from "./convert.js";

const OPTIONS = `Options as for 'onnxtxt convert --opset': --allow-partial keeps nodes that
cannot move in their old form (they are listed; otherwise nothing is written and
the exit code is 1), --write converts a .onnxtxt file in place, --ml-opset N
moves ai.onnx.ml too.`;

export const upgradeCommand: Command = {
  name: "upgrade",
  summary: "move a model to a newer opset (convert --opset N, default the newest)",
  usage: `usage: onnxtxt upgrade [--opset N] [--allow-partial] IN OUT
       onnxtxt upgrade [--opset N] --write FILE.onnxtxt

${OPTIONS}`,
  run(argv, io) {
    return runConvert(argv, io, latestOpsetVersion("") ?? 1);
  },
};

export const downgradeCommand: Command = {
  name: "downgrade",
  summary: "move a model to an older opset (convert --opset N)",
  usage: `usage: onnxtxt downgrade --opset N [--allow-partial] IN OUT
       onnxtxt downgrade --opset N --write FILE.onnxtxt

${OPTIONS}`,
  run(argv, io) {
    if (!argv.some((a) => a === "--opset" || a.startsWith("--opset="))) throw new UsageError("downgrade needs --opset N");
    return runConvert(argv, io);
  },
};
