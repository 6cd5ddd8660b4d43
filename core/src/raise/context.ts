// Shared state while raising one model: the model-wide presence defaults (chosen so that
// most elements need no extension) and the extension comments attached to AST nodes.
import type * as A from "../../../grammar/src/ast.js";
import { extCommentText, type ExtKind } from "../ext/ext-comment.js";
import type { Residual } from "./residual.js";

export interface ModelDefaults {
  /** Nodes written without a domain have no domain field (instead of `""`). */
  readonly nodeDomainUnset: boolean;
  /** Attribute tensors written without a name have no name field (instead of `""`). */
  readonly tensorNameUnset: boolean;
  /** Tensors with inline data keep it in raw_data. */
  readonly rawStorage: boolean;
}

export class RaiseContext {
  /** Comment lines (text after `#`) to print before an AST node. */
  readonly leading = new Map<A.AstNode, string[]>();

  constructor(readonly defaults: ModelDefaults) {}

  attach(node: A.AstNode, kind: ExtKind, residual: Residual): void {
    if (residual.empty) return;
    const data = residual.toJson();
    if (Object.keys(data).length === 0) return;
    const list = this.leading.get(node) ?? [];
    list.push(extCommentText(kind, data));
    this.leading.set(node, list);
  }
}
