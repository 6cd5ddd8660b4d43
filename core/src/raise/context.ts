// Shared state while raising one model: the model-wide presence defaults (chosen so that
// most elements need no residual), the residual comments attached to statements, and the
// residuals of parts inside a statement (attributes, their tensors and subgraphs) that the
// statement's own residual carries, so no residual stands inside an attribute value.
import type { JsonObject } from "@bufbuild/protobuf";
import type * as A from "../../../grammar/src/ast.js";
import type { NodeProto } from "../../../proto/src/index.js";
import type { LazyNodes } from "../print/printer.js";
import { dependsOnText } from "../ext/digest.js";
import { extCommentText, type ExtKind } from "../ext/ext-comment.js";
import { NO_SPAN } from "./ast-build.js";
import { statementText } from "./statement-text.js";
import type { Residual } from "./residual.js";
import { digestOfAst } from "./visible-digest.js";

export interface ModelDefaults {
  /** Nodes written without a domain have no domain field (instead of `""`). */
  readonly nodeDomainUnset: boolean;
  /** Attribute tensors written without a name have no name field (instead of `""`). */
  readonly tensorNameUnset: boolean;
  /** Initializers (and other tensors outside attributes) keep their data in raw_data. */
  readonly rawStorage: boolean;
  /** Tensors in attribute values keep their data in raw_data. */
  readonly attrRawStorage: boolean;
  /** Whether exactly one node has this first output name: then it names its node in the file-level residual. */
  readonly uniqueFirstOutput: (name: string) => boolean;
}

/**
 * The first output name that identifies a node in the file-level residual, if no other node has
 * it first. Asked only for the nodes that differ from the defaults (most models have none), so
 * the count behind `uniqueFirstOutput` is usually never made.
 */
export function nodeKeyOf(outputs: readonly string[], defaults: ModelDefaults): string | undefined {
  const first = outputs[0];
  return first && defaults.uniqueFirstOutput(first) ? first : undefined;
}

/** How `print --plain` names what it leaves out. */
const PLAIN_NAMES: Record<string, string> = {
  "@node_domain": "default: nodes without a domain field",
  "@tensor_name": "default: attribute tensors without a name field",
  "@storage": "raw_data storage",
  "@attr_storage": "default: attribute tensors in raw_data",
  "@node_domain_except": "domain presence of some nodes",
  "@tensor_name_except": "name presence of some attribute tensors",
  "@opset_unset": "opset entries without a domain or version field",
  "@metadata_unset": "metadata entries without a key or value field",
  "@nan": "NaN payloads",
  "@attr": "attribute data (doc strings, NaN payloads, storage, presence)",
  "@clear": "fields the text would set but the model lacks",
  "@denotation": "type denotations",
  "@external": "external data brought back inline",
  "@attributes": "sparse tensor attributes",
};

export class RaiseContext {
  /** Comment lines (text after `#`) to print before an AST node. */
  readonly leading = new Map<A.AstNode, string[]>();
  /** Residuals of parts inside a statement, until the statement takes them. */
  private readonly held = new Map<A.AstNode, JsonObject>();
  /** Nodes (by first output) whose domain presence differs from the default. */
  readonly domainExcept: string[] = [];
  /** Attribute tensors ([first output, attribute name]) whose name presence differs from the default. */
  readonly tensorNameExcept: [string, string][] = [];

  /** With `plain`, residuals are not written; what they held is counted here (`#@KIND key` -> count). */
  readonly dropped = new Map<string, number>();
  /** The statements of the main graph and of each function, raised as they are printed. */
  readonly lazyBodies = new Map<A.NodeBlock, LazyNodes>();

  private readonly plain: boolean;
  private readonly raiseBlocksNow: boolean;
  private readonly fastStatements: boolean;

  /**
   * `plain`: no residuals (see `dropped`). `raiseBlocksNow`: every statement is raised at once,
   * for callers that look at all the residuals before printing (a part printed on its own).
   * `fastStatements: false` turns off the statement fast path (statement-text.ts), so tests can
   * compare it with the full raise.
   */
  constructor(
    readonly defaults: ModelDefaults,
    options: { plain?: boolean; raiseBlocksNow?: boolean; fastStatements?: boolean } = {},
  ) {
    this.plain = options.plain ?? false;
    this.raiseBlocksNow = options.raiseBlocksNow ?? false;
    this.fastStatements = options.fastStatements ?? true;
  }

  /**
   * A block of statements whose nodes are raised one at a time by `raise` when printed: the
   * block's own list stays empty. Only for blocks whose statements carry their residuals
   * themselves (not a subgraph's, whose residual its statement takes when it is raised).
   */
  lazyBlock(nodes: readonly NodeProto[], raise: (n: NodeProto) => A.OpNode): A.NodeBlock {
    if (this.raiseBlocksNow) return { kind: "NodeBlock", span: NO_SPAN, nodes: nodes.map(raise) };
    const block: A.NodeBlock = { kind: "NodeBlock", span: NO_SPAN, nodes: [] };
    const defaults = this.defaults;
    this.lazyBodies.set(block, {
      count: nodes.length,
      node: (i) => raise(nodes[i]!),
      text: this.fastStatements ? (i) => statementText(nodes[i]!, defaults) : undefined,
    });
    return block;
  }

  attach(node: A.AstNode, kind: ExtKind, residual: Residual): void {
    if (residual.empty) return;
    let data = residual.toJson();
    if (Object.keys(data).length === 0) return;
    if (this.plain) {
      for (const key of Object.keys(data)) {
        const what = `${kind} ${PLAIN_NAMES[key] ?? key}`;
        this.dropped.set(what, (this.dropped.get(what) ?? 0) + 1);
      }
      return;
    }
    // Data that restates or depends on the visible part carries that part's digest, so a hand
    // edit of the element makes it stale instead of overriding the edit.
    if (kind !== "model" && dependsOnText(data)) {
      const digest = digestOfAst(kind, node);
      if (digest) data = { "@digest": digest, ...data };
    }
    const list = this.leading.get(node) ?? [];
    list.push(extCommentText(kind, data));
    this.leading.set(node, list);
  }

  /** Keeps the residual of a part inside a statement for the statement's residual. */
  hold(node: A.AstNode, residual: Residual): void {
    if (residual.empty) return;
    const data = residual.toJson();
    if (Object.keys(data).length) this.held.set(node, data);
  }

  take(node: A.AstNode): JsonObject | undefined {
    const data = this.held.get(node);
    if (data) this.held.delete(node);
    return data;
  }

  /** The first output name that identifies `outputs`' node in the file-level residual, if unique. */
  nodeKey(outputs: readonly string[]): string | undefined {
    return nodeKeyOf(outputs, this.defaults);
  }
}
