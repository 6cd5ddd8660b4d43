// Gathers the residuals of a statement's attributes (and of the tensors and subgraphs in their
// values) into one `"@attr"` entry of the statement's own residual:
// `{"INDEX": {...attribute fields, "@tensor": {...}, "@tensors": {"I": {...}}, "@graph": {...}, "@graphs": {"I": {...}}}}`,
// INDEX counting the written attributes (or function parameters with defaults) in text order.
import type { JsonObject } from "@bufbuild/protobuf";
import type * as A from "../../../grammar/src/ast.js";
import type { RaiseContext } from "./context.js";

function partsOf(a: A.Attribute, ctx: RaiseContext): JsonObject | undefined {
  let out: JsonObject | undefined = ctx.take(a);
  const put = (key: string, value: JsonObject): void => {
    out = { ...out, [key]: value };
  };
  const v = a.value;
  if (v?.kind === "TensorValue" || v?.kind === "Graph") {
    const own = ctx.take(v);
    if (own) put(v.kind === "Graph" ? "@graph" : "@tensor", own);
  } else if (v?.kind === "List") {
    const tensors: JsonObject = {};
    const graphs: JsonObject = {};
    let t = 0;
    let g = 0;
    for (const item of v.items) {
      if (item.kind === "TensorValue") {
        const own = ctx.take(item);
        if (own) tensors[t] = own;
        t++;
      } else if (item.kind === "Graph") {
        const own = ctx.take(item);
        if (own) graphs[g] = own;
        g++;
      }
    }
    if (Object.keys(tensors).length) put("@tensors", tensors);
    if (Object.keys(graphs).length) put("@graphs", graphs);
  }
  return out;
}

/** The `"@attr"` value for these attributes, or undefined when none has a residual. */
export function liftAttributes(attrs: readonly A.Attribute[], ctx: RaiseContext): JsonObject | undefined {
  let out: JsonObject | undefined;
  attrs.forEach((a, i) => {
    const parts = partsOf(a, ctx);
    if (parts) (out ??= {})[i] = parts;
  });
  return out;
}
