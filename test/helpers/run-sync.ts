// The interpreter run synchronously with the CLI's default inputs, for tests that compare the
// outputs of two models (opset conversion) and need no more than the values: the library's
// `run` (async, with input checks and caps) is tested on its own in test/package.
import type { ModelProto } from "../../proto/src/index.js";
import { defaultValue, Interpreter, Rng, type Value } from "../../core/src/interp/index.js";

export function runSync(model: ModelProto, inputs: Readonly<Record<string, Value>> = {}, options: { seed?: number } = {}): Map<string, Value> {
  const graph = model.graph!;
  const initialized = new Set(graph.initializer.map((t) => t.name));
  const rng = new Rng(options.seed ?? 0);
  const feeds = new Map<string, Value>(Object.entries(inputs));
  for (const info of graph.input) {
    if (!initialized.has(info.name) && !feeds.has(info.name)) feeds.set(info.name, defaultValue(info.type, new Map(), rng, info.name));
  }
  return new Interpreter(model, { seed: options.seed ?? 0 }).run(feeds);
}
