// *ONNX: Convert Model to Opset...*: a quick pick of every ai.onnx opset, answered by the
// server's onnxtxt/convertOpset (the code actions offer only the newest and the neighbours).
// A conversion that would leave nodes behind is not applied: the message says which and why.
import type { ConvertOpsetResult } from "../../server/src/opset-request.js";
import type { Messages } from "./editor-host.js";

type Conversion = NonNullable<ConvertOpsetResult["conversion"]>;

export interface OpsetPickItem {
  readonly label: string;
  readonly description?: string;
  readonly target: number;
}

export interface ConvertOpsetHost extends Messages {
  convertOpset(uri: string, target?: number): Promise<ConvertOpsetResult>;
  pick(items: readonly OpsetPickItem[], placeholder: string): Promise<OpsetPickItem | undefined>;
  /** Applies the edits to the document; false when the editor refused (it changed meanwhile). */
  apply(uri: string, edits: Conversion["edits"]): Promise<boolean>;
}

/** Newest first; the imported opset is left out. */
export function opsetItems(from: number, latest: number): OpsetPickItem[] {
  const items: OpsetPickItem[] = [];
  for (let t = latest; t >= 1; t--) {
    if (t === from) continue;
    const description = t === latest ? "newest" : t === from + 1 ? "next" : t === from - 1 ? "previous" : undefined;
    items.push({ label: `Opset ${t}`, target: t, ...(description && { description }) });
  }
  return items;
}

function refusedMessage(c: Conversion): string {
  const shown = c.refused.slice(0, 3).map((r) => `${r.range ? `line ${r.range.start.line + 1}: ` : ""}${r.message}`);
  const more = c.refused.length > 3 ? `; and ${c.refused.length - 3} more` : "";
  const count = c.refused.length === 1 ? "1 node cannot" : `${c.refused.length} nodes cannot`;
  return `Not converted to opset ${c.target}: ${count} convert: ${shown.join("; ")}${more}`;
}

export async function convertModelOpset(uri: string, host: ConvertOpsetHost): Promise<void> {
  const info = await host.convertOpset(uri);
  const picked = await host.pick(opsetItems(info.from, info.latest), `The model imports ai.onnx opset ${info.from}: convert it to`);
  if (!picked) return;
  const { conversion } = await host.convertOpset(uri, picked.target);
  if (!conversion) return;
  if (conversion.refused.length > 0) return host.error(refusedMessage(conversion));
  if (!(await host.apply(uri, conversion.edits))) return host.error("The document changed while converting: run the command again.");
  if (conversion.canonical) host.info(`Converted to opset ${conversion.target}; the model was reprinted, so comments and layout were not kept.`);
}
