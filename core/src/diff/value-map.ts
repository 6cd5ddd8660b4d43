// Which value of B each value of A is, per graph scope. A subgraph sees its enclosing graphs'
// values, so a scope looks through its parent; bindings are made once and never changed. The
// pairs the node matching makes are read from its arrays (a million of them are not copied).

/** Pairs held by the node matching: the values its nodes use, by id. */
export interface PairedValues {
  readonly a: { readonly ids: ReadonlyMap<string, number>; readonly names: readonly string[]; readonly mate: Int32Array; readonly inherited: Uint8Array };
  readonly b: { readonly ids: ReadonlyMap<string, number>; readonly names: readonly string[]; readonly mate: Int32Array };
}

export class ValueMap {
  private readonly aToB = new Map<string, string>();
  private readonly bToA = new Map<string, string>();
  private paired: PairedValues | undefined;

  constructor(readonly parent?: ValueMap) {}

  /** From now on, the matching's pairs count as this scope's too. */
  attach(paired: PairedValues): void {
    this.paired = paired;
  }

  private ownB(a: string): string | undefined {
    const v = this.aToB.get(a);
    if (v !== undefined || !this.paired) return v;
    const id = this.paired.a.ids.get(a);
    const w = id === undefined ? -1 : this.paired.a.mate[id]!;
    return w >= 0 ? this.paired.b.names[w] : undefined;
  }

  private ownA(b: string): string | undefined {
    const v = this.bToA.get(b);
    if (v !== undefined || !this.paired) return v;
    const id = this.paired.b.ids.get(b);
    const w = id === undefined ? -1 : this.paired.b.mate[id]!;
    return w >= 0 ? this.paired.a.names[w] : undefined;
  }

  b(a: string): string | undefined {
    for (let m: ValueMap | undefined = this; m; m = m.parent) {
      const v = m.ownB(a);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  a(b: string): string | undefined {
    for (let m: ValueMap | undefined = this; m; m = m.parent) {
      const v = m.ownA(b);
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

  /** The pairs bound in this scope (not the enclosing ones). */
  *own(): IterableIterator<[string, string]> {
    yield* this.aToB.entries();
    const p = this.paired;
    if (!p) return;
    for (let v = 0; v < p.a.names.length; v++) {
      const w = p.a.mate[v]!;
      const name = p.a.names[v]!;
      // pairs made before the matching are in the maps already, or an enclosing scope's
      if (w >= 0 && !p.a.inherited[v] && !this.aToB.has(name)) yield [name, p.b.names[w]!];
    }
  }
}
