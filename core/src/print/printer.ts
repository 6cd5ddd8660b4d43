// AST -> Doc -> text in the canonical layout: two-space indentation, lines of about 100
// columns, lists that do not fit broken one item per line, tensor data packed in rows.
// The same printer serves raised binary models and the formatter (which passes comments
// and the source text, so numbers print as they were written).
import type * as A from "../../../grammar/src/ast.js";
import type { CommentPlacement } from "./comments.js";
import { NO_COMMENTS } from "./comments.js";
import { fill, freshline, group, hardline, indent, join, knownGroup, layout, lazy, line, lineSuffix, softline, type Doc, type FillWriter } from "./doc.js";
import { formatFloat32, formatFloat64, writeFloat32s } from "../numbers/float-text.js";
import { writeIntegerFill } from "../numbers/integer-fill.js";
import { quote } from "../../../grammar/src/names.js";

interface PrintOptions {
  readonly comments?: CommentPlacement;
  /** The parsed text, for spans whose text is printed as written (packed numbers). */
  readonly source?: string;
  readonly width?: number;
  /** Stream the text to this as UTF-8 chunks (valid during the call only); the result is then "". */
  readonly write?: (bytes: Uint8Array) => void;
  /** About how many bytes `write` gets at a time (default 4 MiB). */
  readonly chunkBytes?: number;
  /** Blocks whose statements are made on demand instead of read from `nodes` (see raiseModel). */
  readonly lazyBodies?: ReadonlyMap<A.NodeBlock, LazyNodes>;
}

/** The statements of a block, raised one at a time while they are printed. */
export interface LazyNodes {
  readonly count: number;
  node(i: number): A.OpNode;
  /**
   * The statement's text when it is one plain line (no comment, nothing laid out): what
   * `node(i)` would print flat; undefined sends it through `node`.
   */
  readonly text: ((i: number) => string | undefined) | undefined;
}

class Printer {
  private readonly c: CommentPlacement;
  /**
   * Nodes with a trailing, dangling or after-open comment; undefined when there are none.
   * Leading comments are looked up as they are: statements raised on demand add theirs late.
   */
  private readonly commented: Set<A.AstNode> | undefined;

  private readonly width: number;

  constructor(private readonly opts: PrintOptions) {
    this.width = opts.width ?? DEFAULT_WIDTH;
    this.c = opts.comments ?? NO_COMMENTS;
    const c = this.c;
    if (c.trailing.size + c.dangling.size + c.afterOpen.size > 0) {
      this.commented = new Set([...c.trailing.keys(), ...c.dangling.keys(), ...c.afterOpen.keys()]);
    }
  }

  private hasComment(node: A.AstNode | undefined): boolean {
    return node !== undefined && (this.c.leading.has(node) || (this.commented !== undefined && this.commented.has(node)));
  }

  /** Wraps a node's doc with its leading and trailing comments. */
  private wrap(node: A.AstNode, doc: Doc): Doc {
    const lead = this.c.leading.get(node);
    const trail = this.c.trailing.get(node);
    if (!lead && !trail) return doc;
    const parts: Doc[] = [];
    if (lead) {
      parts.push(freshline);
      for (const t of lead) parts.push("#" + t, hardline);
    }
    parts.push(doc);
    if (trail) for (const t of trail) parts.push(lineSuffix(" #" + t));
    return parts;
  }

  /** An opening bracket with the end-of-line comments that followed it. */
  private open(node: A.AstNode | undefined, bracket: string): Doc {
    const after = node && this.c.afterOpen.get(node);
    return after ? [bracket, ...after.map((t) => lineSuffix(" #" + t))] : bracket;
  }

  private dangling(node: A.AstNode): Doc[] {
    const d = this.c.dangling.get(node);
    if (!d) return [];
    const out: Doc[] = [];
    for (const t of d) out.push(hardline, "#" + t);
    return out;
  }

  /** `open items close`: flat when it fits, otherwise one item per line. */
  private bracketed(owner: A.AstNode | undefined, open: string, items: readonly Doc[], close: string): Doc {
    const tail = owner ? this.dangling(owner) : [];
    const opened = this.open(owner, open);
    const doc =
      items.length === 0 && tail.length === 0 && opened === open
        ? open + close
        : group([opened, indent([softline, join([",", line], items), ...tail]), softline, close]);
    return owner ? this.wrap(owner, doc) : doc;
  }

  /** Items of a vertical list, with a blank line kept where the source had one. */
  private lines(nodes: readonly A.AstNode[], docs: readonly Doc[]): Doc[] {
    const out: Doc[] = [];
    docs.forEach((d, i) => {
      if (i > 0) {
        out.push(hardline);
        if (this.c.blankBefore.has(nodes[i]!)) out.push(hardline);
      }
      out.push(d);
    });
    return out;
  }

  name(n: A.Name | undefined): string {
    if (!n) return '""';
    return n.quoted ? quote(n.value) : n.value;
  }

  literal(l: A.Literal): string {
    return l.kind === "Str" ? quote(l.value) : l.text;
  }

  model(m: A.Model): Doc {
    const parts: Doc[] = [];
    if (m.header) parts.push(this.header(m.header), hardline);
    if (m.graph) parts.push(this.graph(m.graph));
    for (const f of m.functions) parts.push(hardline, hardline, this.func(f));
    parts.push(...this.dangling(m), hardline);
    return this.wrap(m, parts);
  }

  header(h: A.Header): Doc {
    return this.bracketed(
      h,
      "<",
      h.entries.map((e) => this.headerEntry(e)),
      ">",
    );
  }

  headerEntry(e: A.HeaderEntry): Doc {
    const v = e.value;
    let value: Doc = "";
    if (v?.kind === "OpsetList") {
      value = this.bracketed(
        v,
        "[",
        v.items.map((o) => this.wrap(o, `${o.domain ? quote(o.domain.value) : '""'} : ${o.version?.text ?? "0"}`)),
        "]",
      );
    } else if (v?.kind === "PropList") value = this.propList(v);
    else if (v) value = this.literal(v);
    return this.wrap(e, [e.key.text, ": ", value]);
  }

  propList(p: A.PropList): Doc {
    return this.bracketed(
      p,
      "[",
      p.items.map((e) => this.wrap(e, `${quote(e.key?.value ?? "")}: ${quote(e.value?.value ?? "")}`)),
      "]",
    );
  }

  /** `(a, b)` / `<a, b>` value lists. */
  valueDecls(list: A.ValueDeclList | undefined, open: string, close: string): Doc {
    if (!list) return open + close;
    return this.bracketed(
      list,
      open,
      list.items.map((d) => this.valueDecl(d)),
      close,
    );
  }

  valueDecl(d: A.ValueDecl): Doc {
    const parts: Doc[] = [];
    if (d.type) parts.push(this.type(d.type), " ");
    parts.push(this.name(d.name));
    if (d.init) parts.push(" = ", this.tensorData(d.init, d.type?.kind === "TensorType" ? d.type.elem.text : undefined));
    return this.wrap(d, parts);
  }

  graph(g: A.Graph): Doc {
    const parts: Doc[] = [this.name(g.name), " "];
    if (g.inputs) parts.push(this.valueDecls(g.inputs, "(", ")"), " ");
    parts.push("=> ", this.valueDecls(g.outputs, "(", ")"));
    if (g.valueInfos) parts.push(" ", this.valueDecls(g.valueInfos, "<", ">"));
    parts.push(" ", this.body(g.body));
    return this.wrap(g, parts);
  }

  body(b: A.NodeBlock | undefined): Doc {
    const tail = b ? this.dangling(b) : [];
    const lazyNodes = b && this.opts.lazyBodies?.get(b);
    const count = lazyNodes ? lazyNodes.count : (b?.nodes.length ?? 0);
    if (!b || (count === 0 && tail.length === 0 && !this.c.afterOpen.has(b))) return "{}";
    const statements: Doc[] = lazyNodes
      ? [
          // Statements and the line breaks between them, as one sequence (no array per statement).
          lazy(Math.max(0, 2 * count - 1), (k) => (k & 1 ? hardline : this.lazyStatement(lazyNodes, k >> 1))),
        ]
      : this.lines(
          b.nodes,
          b.nodes.map((n) => this.node(n)),
        );
    return this.wrap(b, [this.open(b, "{"), indent([hardline, ...statements, ...tail]), hardline, "}"]);
  }

  /**
   * A statement of a lazy block: its plain text when it has one that fits on its line, so
   * neither its AST nor its doc is made. Lazy blocks are the model's top-level bodies, whose
   * statements start one indentation in and are followed by a line break, so "fits" is a
   * matter of length.
   */
  private lazyStatement(lazyNodes: LazyNodes, i: number): Doc {
    const text = lazyNodes.text?.(i);
    if (text !== undefined && text.length <= this.width - INDENT_UNIT.length) return text;
    return this.node(lazyNodes.node(i));
  }

  func(f: A.FunctionDef): Doc {
    const parts: Doc[] = [];
    if (f.header) parts.push(this.header(f.header), hardline);
    parts.push(this.name(f.name), " ");
    if (f.params)
      parts.push(
        this.bracketed(
          f.params,
          "<",
          f.params.items.map((p) => (p.kind === "Name" ? this.wrap(p, this.name(p)) : this.attribute(p))),
          ">",
        ),
        " ",
      );
    parts.push(this.valueDecls(f.inputs, "(", ")"), " => ", this.valueDecls(f.outputs, "(", ")"));
    if (f.valueInfos) parts.push(" ", this.valueDecls(f.valueInfos, "<", ">"));
    parts.push(" ", this.body(f.body));
    return this.wrap(f, parts);
  }

  /** Id-list entries; a final empty entry needs one more comma (`(x, ,)` is ["x", ""]). */
  idList(l: A.IdList | undefined): Doc[] {
    const items = l?.items ?? [];
    return items.map((i, k) => {
      const text = i.kind === "Empty" ? (k === items.length - 1 ? "," : "") : this.name(i);
      return this.wrap(i, text);
    });
  }

  /**
   * A node as a group, with its flat text computed up front when nothing in it has a comment
   * or a subgraph: most nodes fit on their line, and then no doc is built for them.
   */
  node(n: A.OpNode): Doc {
    const text = this.flatNode(n);
    return text === undefined ? this.nodeGroup(n) : knownGroup(text, () => this.nodeGroup(n));
  }

  /** The text of nodeGroup(n) in flat mode, when it is a plain group (no comment, no graph). */
  private flatNode(n: A.OpNode): string | undefined {
    if (this.hasComment(n) || this.hasComment(n.label) || this.hasComment(n.op)) return undefined;
    let text = "";
    if (n.label) text = `[${n.label.name ? this.name(n.label.name) : ""}] `;
    const outs = this.flatIds(n.outputs);
    if (outs === undefined) return undefined;
    text += n.outputs.items.length ? outs + " = " : "= ";
    const op = n.op;
    if (op) {
      let dotted = op.opType?.value ?? "";
      for (let i = op.domain.length - 1; i >= 0; i--) dotted = op.domain[i]!.value + "." + dotted;
      text += op.overload ? `${dotted}:${op.overload.value}` : dotted;
    }
    let attrs: string | undefined;
    if (n.attributes) {
      if (this.hasComment(n.attributes)) return undefined;
      attrs = "<";
      const items = n.attributes.items;
      for (let i = 0; i < items.length; i++) {
        const a = this.flatAttribute(items[i]!);
        if (a === undefined) return undefined;
        attrs += i > 0 ? ", " + a : a;
      }
      attrs += ">";
    }
    if (attrs !== undefined && !n.attributesAfterInputs) text += " " + attrs;
    if (n.inputs) {
      const ins = this.flatIds(n.inputs);
      if (ins === undefined) return undefined;
      text += " (" + ins + ")";
    } else text += " ()";
    if (attrs !== undefined && n.attributesAfterInputs) text += " " + attrs;
    return text;
  }

  /** idList entries joined flat, or undefined when one has a comment. */
  private flatIds(l: A.IdList): string | undefined {
    if (this.hasComment(l)) return undefined;
    const items = l.items;
    let text = "";
    for (let k = 0; k < items.length; k++) {
      const i = items[k]!;
      if (this.hasComment(i)) return undefined;
      const t = i.kind === "Empty" ? (k === items.length - 1 ? "," : "") : this.name(i);
      text += k > 0 ? ", " + t : t;
    }
    return text;
  }

  private flatAttribute(a: A.Attribute): string | undefined {
    if (this.hasComment(a)) return undefined;
    let text = a.name ? this.name(a.name) : "";
    if (a.annotation) text += ": " + a.annotation.text;
    text += " = ";
    if (!a.value) return text;
    const v = this.flatAttrValue(a.value);
    return v === undefined ? undefined : text + v;
  }

  /** Scalar, reference, type and list values flat; tensors and graphs take the doc path. */
  private flatAttrValue(v: A.AttrValue): string | undefined {
    if (this.hasComment(v)) return undefined;
    switch (v.kind) {
      case "Int":
      case "Float":
      case "Str":
        return this.literal(v);
      case "Ref":
        return "@" + this.name(v.name);
      case "TypeValue":
        return this.type(v.type);
      case "List": {
        let text = "[";
        for (let i = 0; i < v.items.length; i++) {
          const item = this.flatAttrValue(v.items[i]!);
          if (item === undefined) return undefined;
          text += i > 0 ? ", " + item : item;
        }
        return text + "]";
      }
      default:
        return undefined;
    }
  }

  private nodeGroup(n: A.OpNode): Doc {
    const parts: Doc[] = [];
    if (n.label) parts.push(this.wrap(n.label, `[${n.label.name ? this.name(n.label.name) : ""}]`), " ");
    const outs = this.idList(n.outputs);
    parts.push(this.wrap(n.outputs, group(join([",", line], outs))), outs.length ? " = " : "= ");
    const op = n.op;
    if (op) {
      const dotted = [...op.domain.map((d) => d.value), op.opType?.value ?? ""].join(".");
      parts.push(this.wrap(op, op.overload ? `${dotted}:${op.overload.value}` : dotted));
    }
    const attrs = n.attributes ? this.attributeList(n.attributes) : undefined;
    const inputs = this.bracketed(n.inputs, "(", this.idList(n.inputs), ")");
    if (attrs && !n.attributesAfterInputs) parts.push(" ", attrs);
    parts.push(" ", inputs);
    if (attrs && n.attributesAfterInputs) parts.push(" ", attrs);
    return this.wrap(n, group(parts));
  }

  /** A lone attribute hugs its brackets (`<body = g () => () {...}>`); more break per item. */
  private attributeList(l: A.AttributeList): Doc {
    const only = l.items.length === 1 ? l.items[0]! : undefined;
    if (only && !this.c.dangling.has(l) && !this.c.afterOpen.has(l) && !this.c.leading.has(only) && !this.c.trailing.has(only))
      return this.wrap(l, ["<", this.attribute(only), ">"]);
    return this.bracketed(
      l,
      "<",
      l.items.map((a) => this.attribute(a)),
      ">",
    );
  }

  attribute(a: A.Attribute): Doc {
    // Quoted only where the source quoted it (function parameters may be quoted names).
    const parts: Doc[] = [a.name ? this.name(a.name) : ""];
    if (a.annotation) parts.push(": ", a.annotation.text);
    parts.push(" = ");
    if (a.value) parts.push(this.attrValue(a.value));
    return this.wrap(a, parts);
  }

  attrValue(v: A.AttrValue): Doc {
    switch (v.kind) {
      case "Int":
      case "Float":
      case "Str":
        return this.wrap(v, this.literal(v));
      case "Ref":
        return this.wrap(v, "@" + this.name(v.name));
      case "TensorValue": {
        const parts: Doc[] = [this.type(v.type), " "];
        if (v.name) parts.push(this.name(v.name), " ");
        parts.push(v.data ? this.tensorData(v.data, v.type.kind === "TensorType" ? v.type.elem.text : undefined) : "{}");
        return this.wrap(v, parts);
      }
      case "TypeValue":
        return this.wrap(v, this.type(v.type));
      case "Graph":
        return this.graph(v);
      case "List":
        return this.bracketed(
          v,
          "[",
          v.items.map((i) => this.attrValue(i)),
          "]",
        );
    }
  }

  type(t: A.TypeExpr): string {
    switch (t.kind) {
      case "TensorType":
        return t.elem.text + (t.shape ? `[${t.shape.dims.map((d) => this.dim(d)).join(", ")}]` : "");
      case "SeqType":
        return `seq(${t.elem ? this.type(t.elem) : ""})`;
      case "OptionalType":
        return `optional(${t.elem ? this.type(t.elem) : ""})`;
      case "SparseTensorType":
        return `sparse_tensor(${t.elem ? this.type(t.elem) : ""})`;
      case "MapType":
        return `map(${t.key?.text ?? ""}, ${t.value ? this.type(t.value) : ""})`;
      case "OpaqueType": {
        const first = (t.first ?? []).map((n) => n.value).join(".");
        return t.second ? `opaque(${first}, ${t.second.value})` : `opaque(${first})`;
      }
    }
  }

  dim(d: A.Dim): string {
    const v = d.value;
    if (!v || v.kind === "Unknown") return "?";
    return v.kind === "Int" ? v.text : this.name(v);
  }

  /** Tensor data; `elem` (the element type keyword) decides how packed values print. */
  tensorData(d: A.TensorData, elem: string | undefined): Doc {
    if (d.kind === "ExternalData") return this.wrap(d, this.propList(d.props));
    const els = d.elements;
    let count: number;
    let item: (i: number) => string;
    let write: FillWriter | undefined;
    if ("kind" in els && els.kind === "PackedNumbers") {
      [count, item] = this.packedItems(els, elem);
      const v = els.values;
      const raised = !(this.opts.source !== undefined && els.span.end > els.span.start);
      if (raised && (elem === "float" || elem === "complex64") && (v instanceof Float32Array || v instanceof Float64Array))
        write = (out, at) => writeFloat32s(out, v, at);
      else if (raised && !FLOAT_TEXT.has(elem ?? "")) write = (out, at) => writeIntegerFill(out, v, at);
    } else {
      const lits = els as readonly A.Literal[];
      if (lits.some((l) => this.c.leading.has(l) || this.c.trailing.has(l))) {
        return this.bracketed(
          d,
          "{",
          lits.map((l) => this.wrap(l, this.literal(l))),
          "}",
        );
      }
      count = lits.length;
      item = (i) => this.literal(lits[i]!);
    }
    const tail = this.dangling(d);
    if (count === 0 && tail.length === 0 && !this.c.afterOpen.has(d)) return this.wrap(d, "{}");
    // A scalar or a few short values stay with their type (`float {0}`): broken over three
    // lines after a long name they would read worse, and gain no room.
    if (count <= SHORT_TENSOR_ITEMS && tail.length === 0 && !this.c.afterOpen.has(d)) {
      const flat = Array.from({ length: count }, (_, i) => item(i)).join(", ");
      if (flat.length <= SHORT_TENSOR_WIDTH) return this.wrap(d, `{${flat}}`);
    }
    return this.wrap(d, group([this.open(d, "{"), indent([softline, fill(count, item, ",", write), ...tail]), softline, "}"]));
  }

  private packedItems(p: A.PackedNumbers, elem: string | undefined): [number, (i: number) => string] {
    const src = this.opts.source;
    if (src !== undefined && p.span.end > p.span.start) {
      // As written: the packed token spans `{ ... }` and holds only numbers, commas and blanks.
      const texts = src.slice(p.span.start + 1, p.span.end - 1).match(/[^\s,]+/g) ?? [];
      return [texts.length, (i) => texts[i]!];
    }
    const v = p.values;
    if (elem === "float" || elem === "complex64") return [v.length, (i) => formatFloat32(v[i]!)];
    if (elem === "double" || elem === "complex128") return [v.length, (i) => formatFloat64(v[i]!)];
    return [v.length, (i) => String(v[i]!)];
  }
}

/** Element types whose packed values print as float text; the others print as String(value). */
const FLOAT_TEXT: ReadonlySet<string> = new Set(["float", "complex64", "double", "complex128"]);

const DEFAULT_WIDTH = 100;
const INDENT_UNIT = "  ";

/** Tensor data of at most this many values, this many characters in all, is never broken. */
const SHORT_TENSOR_ITEMS = 4;
const SHORT_TENSOR_WIDTH = 24;

/** Prints a model AST as text (ending with a newline). */
export function printAst(model: A.Model, opts: PrintOptions = {}): string {
  const p = new Printer(opts);
  return layout(p.model(model), opts.width ?? DEFAULT_WIDTH, INDENT_UNIT, opts.write, opts.chunkBytes);
}

/** Prints a type expression as a declaration writes it (`float[N, 3]`). */
export function printTypeExpr(t: A.TypeExpr): string {
  return new Printer({}).type(t);
}

/** Prints one graph, function or node AST on its own (ending with a newline). */
export function printPart(part: A.Graph | A.FunctionDef | A.OpNode, opts: PrintOptions = {}): string {
  const p = new Printer(opts);
  const doc = part.kind === "Graph" ? p.graph(part) : part.kind === "Function" ? p.func(part) : p.node(part);
  return layout([doc, hardline], opts.width ?? DEFAULT_WIDTH, INDENT_UNIT);
}
