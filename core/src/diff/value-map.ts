// Which value of B each value of A is, per graph scope. A subgraph sees its enclosing graphs'
// values, so a scope looks through its parent; bindings are made once and never changed.
export class ValueMap {
  private readonly aToB = new Map<string, string>();
  private readonly bToA = new Map<string, string>();

  constructor(readonly parent?: ValueMap) {}

  b(a: string): string | undefined {
    for (let m: ValueMap | undefined = this; m; m = m.parent) {
      const v = m.aToB.get(a);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  a(b: string): string | undefined {
    for (let m: ValueMap | undefined = this; m; m = m.parent) {
      const v = m.bToA.get(b);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** Binds a to b in this scope unless either is bound already (anywhere visible); says whether it did. */
  bind(a: string, b: string): boolean {
    if (a === "" || b === "" || this.b(a) !== undefined || this.a(b) !== undefined) return false;
    this.aToB.set(a, b);
    this.bToA.set(b, a);
    return true;
  }

  /** The pairs bound in this scope (not the enclosing ones), in binding order. */
  own(): IterableIterator<[string, string]> {
    return this.aToB.entries();
  }
}
