// Names and scopes: every name is defined once (SSA), before it is used (topological order),
// in the graph or an enclosing one (subgraphs see outer values); graph outputs are produced;
// unused values and inputs are reported as warnings.
import type { AttributeProto, GraphProto, NodeProto } from "../../../proto/src/index.js";
import { ChildWhere, NodeWhere, type Part, type Where } from "../infer/location.js";
import { finish, NODES_PER_STEP } from "../../../grammar/src/steps.js";
import type { Emitter } from "./emit.js";
import { CloseNames, didYouMean } from "./suggest.js";

type DefinitionKind = "input" | "initializer" | "node-output";

/** One per value of a graph: a million-node graph makes a million, so it is kept small. */
interface Definition {
  readonly element: object;
  readonly kind: DefinitionKind;
  /** A node output's position among the node's outputs (its Part is made only for a report). */
  readonly output: number;
  /** Where the definition is, for binary models. */
  readonly at: Where;
  used: boolean;
}

function definitionPart(def: Definition): Part {
  return def.kind === "node-output" ? { output: def.output } : "name";
}

/** One graph's names; `parent` holds the names the enclosing graph had defined so far. */
class NameScope {
  readonly defs = new Map<string, Definition>();
  /** Names used before their definition (already reported): not "unused" once defined. */
  readonly usedEarly = new Set<string>();
  constructor(readonly parent?: NameScope) {}

  lookup(name: string): Definition | undefined {
    return this.defs.get(name) ?? this.parent?.lookup(name);
  }

  /** The defined name closest to `name` (a likely misspelling), if one is close enough. */
  closest(name: string): string | undefined {
    const close = new CloseNames(name, 1);
    for (let s: NameScope | undefined = this; s; s = s.parent) for (const defined of s.defs.keys()) close.consider(defined);
    return close.closest()[0];
  }
}

/** Called for every node (in main graph, subgraphs and function bodies) with its location. */
type NodeHook = (node: NodeProto, where: Where) => void;

export class StructureChecker {
  constructor(
    private readonly out: Emitter,
    private readonly onNode: NodeHook,
    /** Before IR version 4 every initializer had to be listed as an input too: no warning then. */
    private readonly warnShadowedInitializers = true,
    /**
     * "did you mean" for an undefined name, from every name defined before it. Off for the
     * editor, which checks a reduced graph per edit (the names it holds are not all the graph's)
     * and offers the close names as quick fixes instead.
     */
    private readonly suggestNames = false,
  ) {}

  checkGraph(g: GraphProto, where: Where, parent?: NameScope): void {
    finish(this.checkGraphSteps(g, where, parent));
  }

  /** checkGraph in steps: it pauses every NODES_PER_STEP nodes of `g` (a language server answers requests between). */
  *checkGraphSteps(g: GraphProto, where: Where, parent?: NameScope): Generator<undefined, void, void> {
    const scope = new NameScope(parent);
    // Graph inputs and initializers may reuse a name of an enclosing graph (as onnx's checker
    // allows); node outputs may not.
    const define = (name: string, element: object, kind: DefinitionKind, at: Where, output = -1): void => {
      if (name === "") return;
      const prev = kind === "node-output" ? scope.lookup(name) : scope.defs.get(name);
      const def: Definition = { element, kind, output, at, used: scope.usedEarly.size > 0 && scope.usedEarly.has(name) };
      if (prev) {
        const what = prev.kind === "node-output" ? "a node output" : prev.kind === "input" ? "a graph input" : "an initializer";
        this.out.emit(
          "redefinition",
          `'${name}' is already defined as ${what}${scope.defs.has(name) ? "" : " of an enclosing graph"}; every name must be assigned once`,
          element,
          at,
          definitionPart(def),
        );
        return;
      }
      scope.defs.set(name, def);
    };
    const inputNames = new Set(g.input.map((vi) => vi.name));
    for (const vi of g.input) define(vi.name, vi, "input", new ChildWhere(where, "input", vi.name));
    for (const t of g.initializer) {
      if (inputNames.has(t.name)) {
        if (this.warnShadowedInitializers)
          this.out.emit(
            "input-shadows-initializer",
            `initializer '${t.name}' is also a graph input, so a caller can replace its value`,
            t,
            new ChildWhere(where, "initializer", t.name),
            "name",
          );
        continue;
      }
      define(t.name, t, "initializer", new ChildWhere(where, "initializer", t.name));
    }
    for (const s of g.sparseInitializer) {
      const name = s.values?.name ?? "";
      if (!inputNames.has(name)) define(name, s, "initializer", new ChildWhere(where, "initializer", name));
    }
    // Needed only for a name that is not defined yet: built then, once.
    let later: Set<string> | undefined;
    const producedLater = (): ReadonlySet<string> => (later ??= new Set(g.node.flatMap((n) => n.output)));
    const nodes = g.node;
    for (let index = 0; index < nodes.length; index++) {
      const node = nodes[index]!;
      const at = new NodeWhere(where, node, index);
      for (let i = 0; i < node.input.length; i++) this.use(scope, node, i, at, producedLater);
      // Indexed loops on the per-node paths: until V8 optimises them, for-of allocates per step.
      for (let k = 0; k < node.attribute.length; k++) this.checkSubgraphs(node.attribute[k]!, at, scope);
      this.onNode(node, at);
      for (let j = 0; j < node.output.length; j++) define(node.output[j]!, node, "node-output", at, j);
      if (index % NODES_PER_STEP === NODES_PER_STEP - 1) yield;
    }
    for (const vi of g.output) {
      const def = scope.defs.get(vi.name);
      if (def) def.used = true;
      else {
        const outer = scope.parent?.lookup(vi.name);
        if (outer) outer.used = true;
        const why = outer
          ? "is a value of an enclosing graph; a subgraph must produce its outputs itself (e.g. with Identity)"
          : "is not produced by any node, input or initializer";
        this.out.emit("output-not-produced", `graph output '${vi.name}' ${why}`, vi, new ChildWhere(where, "output", vi.name), "name");
      }
    }
    this.reportUnused(scope);
  }

  private checkSubgraphs(a: AttributeProto, at: Where, scope: NameScope): void {
    if (a.g) this.checkGraph(a.g, new ChildWhere(at, "attribute", a.name), scope);
    a.graphs.forEach((g, i) => this.checkGraph(g, `${at} > attribute '${a.name}'[${i}]`, scope));
  }

  /** Input `i` of `node` is a use of its name. */
  use(scope: NameScope, node: NodeProto, i: number, at: Where, producedLater: () => ReadonlySet<string>): void {
    const name = node.input[i]!;
    if (name === "") return;
    const def = scope.lookup(name);
    if (def) {
      def.used = true;
      return;
    }
    if (producedLater().has(name)) {
      scope.usedEarly.add(name);
      this.out.emit("use-before-definition", `'${name}' is used before the node that defines it; nodes must be in topological order`, node, at, { input: i });
    } else {
      const hint = this.suggestNames ? scope.closest(name) : undefined;
      // the misspelt use was meant for it: "never used" would be a second report of this one
      if (hint !== undefined) scope.lookup(hint)!.used = true;
      const message = `'${name}' is not defined: no input, initializer or earlier node output has this name${hint === undefined ? "" : `; ${didYouMean(hint)}`}`;
      this.out.emit("undefined-value", message, node, at, { input: i });
    }
  }

  private reportUnused(scope: NameScope): void {
    // forEach, not for-of: the entries of a million-name map are not made as pairs.
    scope.defs.forEach((def, name) => {
      if (def.used) return;
      if (def.kind === "node-output") this.out.emit("unused-value", `'${name}' is computed but never used`, def.element, def.at, definitionPart(def));
      else if (def.kind === "input" && scope.parent === undefined)
        this.out.emit("unused-input", `graph input '${name}' is never used`, def.element, def.at, definitionPart(def));
      else if (def.kind === "initializer") this.out.emit("unused-initializer", `initializer '${name}' is never used`, def.element, def.at, definitionPart(def));
    });
  }
}
