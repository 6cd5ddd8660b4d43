// Comments placed on AST nodes for printing: the formatter attaches the source's comments,
// raise attaches extension comments. Texts are what follows `#` (without the line break).
import type { AstNode } from "../../../grammar/src/ast.js";

export interface CommentPlacement {
  /** Own-line comments printed before the node. */
  readonly leading: ReadonlyMap<AstNode, readonly string[]>;
  /** Comments printed at the end of the node's (last) line. */
  readonly trailing: ReadonlyMap<AstNode, readonly string[]>;
  /** Comments inside a container after its last item (before the closing bracket). */
  readonly dangling: ReadonlyMap<AstNode, readonly string[]>;
  /** End-of-line comments right after a container's opening bracket. */
  readonly afterOpen: ReadonlyMap<AstNode, readonly string[]>;
  /** Nodes that had a blank line before them in the source. */
  readonly blankBefore: ReadonlySet<AstNode>;
}

export const NO_COMMENTS: CommentPlacement = { leading: new Map(), trailing: new Map(), dangling: new Map(), afterOpen: new Map(), blankBefore: new Set() };

export function onlyLeading(leading: ReadonlyMap<AstNode, readonly string[]>): CommentPlacement {
  return { ...NO_COMMENTS, leading };
}
