// The part of TOML a configuration needs: `[table]` and `[a.b]` headers, `key = value` with bare
// or quoted keys, basic and literal strings, integers, booleans and (multi-line) arrays, `#`
// comments. Anything else is refused with its line and column rather than guessed at.

/** 1-based line and column of a place in the file. */
export interface TomlPos {
  readonly line: number;
  readonly col: number;
}

export type TomlValue =
  | { readonly kind: "string"; readonly value: string; readonly pos: TomlPos }
  | { readonly kind: "integer"; readonly value: number; readonly pos: TomlPos }
  | { readonly kind: "boolean"; readonly value: boolean; readonly pos: TomlPos }
  | { readonly kind: "array"; readonly items: readonly TomlValue[]; readonly pos: TomlPos }
  | TomlTable;

export interface TomlEntry {
  readonly keyPos: TomlPos;
  readonly value: TomlValue;
}

export interface TomlTable {
  readonly kind: "table";
  readonly entries: Map<string, TomlEntry>;
  readonly pos: TomlPos;
}

export class TomlError extends Error {
  constructor(
    readonly pos: TomlPos,
    readonly reason: string,
  ) {
    super(`${pos.line}:${pos.col}: ${reason}`);
  }
}

const BARE_KEY = /[A-Za-z0-9_-]/;
const ESCAPES: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\" };

/**
 * Reads `text` as TOML. With `onlyTable` (e.g. ["tool", "onnxtxt"] for pyproject.toml) only the
 * lines of that table and its subtables are read, so the rest of the file may use any TOML.
 */
export function parseToml(text: string, onlyTable?: readonly string[]): TomlTable {
  return new TomlReader(text, onlyTable).read();
}

class TomlReader {
  private i = 0;
  private readonly root: TomlTable = { kind: "table", entries: new Map(), pos: { line: 1, col: 1 } };
  private readonly explicit = new Set<TomlTable>();

  constructor(
    private readonly text: string,
    private readonly onlyTable: readonly string[] | undefined,
  ) {}

  read(): TomlTable {
    let current: TomlTable | undefined = this.onlyTable ? undefined : this.root;
    for (;;) {
      this.skipBlank();
      if (this.i >= this.text.length) return this.root;
      const c = this.text[this.i];
      if (c === "[") {
        const start = this.pos();
        if (this.text[this.i + 1] === "[") {
          if (this.wanted(this.headerKeysLoose())) throw new TomlError(start, "arrays of tables ([[...]]) are not supported here");
          current = undefined;
          this.skipLine();
          continue;
        }
        if (this.onlyTable) {
          const keys = this.headerKeysLoose();
          if (!this.wanted(keys)) {
            current = undefined;
            this.skipLine();
            continue;
          }
        }
        current = this.header();
      } else if (!current) {
        this.skipLine();
      } else {
        this.keyValue(current);
      }
    }
  }

  /** Is a table with these keys the wanted one or below it? */
  private wanted(keys: readonly string[] | undefined): boolean {
    const only = this.onlyTable;
    if (!only) return true;
    return keys !== undefined && keys.length >= only.length && only.every((k, j) => keys[j] === k);
  }

  /** The keys of the header at `i`, read without consuming it; undefined when it does not parse. */
  private headerKeysLoose(): string[] | undefined {
    const save = this.i;
    try {
      this.i += this.text[this.i + 1] === "[" ? 2 : 1;
      return this.dottedKey().map((k) => k.key);
    } catch {
      return undefined;
    } finally {
      this.i = save;
    }
  }

  private header(): TomlTable {
    const open = this.pos();
    this.i++;
    const keys = this.dottedKey();
    this.expect("]");
    this.endOfLine();
    const names = keys.map((k) => k.key);
    const rel = this.onlyTable ? names.slice(this.onlyTable.length) : names;
    let table = this.root;
    for (const [j, name] of rel.entries()) {
      const keyPos = keys[j + names.length - rel.length]!.pos;
      const entry = table.entries.get(name);
      if (!entry) {
        const t: TomlTable = { kind: "table", entries: new Map(), pos: open };
        table.entries.set(name, { keyPos, value: t });
        table = t;
      } else if (entry.value.kind === "table") table = entry.value;
      else throw new TomlError(keyPos, `'${name}' is already a value (line ${entry.keyPos.line}), not a table`);
    }
    if (this.explicit.has(table)) throw new TomlError(open, `table [${names.join(".")}] is defined twice`);
    this.explicit.add(table);
    return table;
  }

  private keyValue(table: TomlTable): void {
    const keys = this.dottedKey();
    if (keys.length > 1) throw new TomlError(keys[0]!.pos, "dotted keys are not supported here; use a [table] header");
    const { key, pos } = keys[0]!;
    this.skipSpaces();
    this.expect("=");
    this.skipSpaces();
    const value = this.value();
    this.endOfLine();
    const before = table.entries.get(key);
    if (before) throw new TomlError(pos, `'${key}' is set twice (first on line ${before.keyPos.line})`);
    table.entries.set(key, { keyPos: pos, value });
  }

  private dottedKey(): { key: string; pos: TomlPos }[] {
    const keys: { key: string; pos: TomlPos }[] = [];
    for (;;) {
      this.skipSpaces();
      const pos = this.pos();
      const c = this.text[this.i];
      let key: string;
      if (c === '"' || c === "'") key = this.string().value;
      else {
        const start = this.i;
        while (this.i < this.text.length && BARE_KEY.test(this.text[this.i]!)) this.i++;
        if (this.i === start) throw new TomlError(pos, c === undefined || c === "\n" ? "expected a key" : `expected a key, found '${c}'`);
        key = this.text.slice(start, this.i);
      }
      keys.push({ key, pos });
      this.skipSpaces();
      if (this.text[this.i] !== ".") return keys;
      this.i++;
    }
  }

  private value(): TomlValue {
    const pos = this.pos();
    const c = this.text[this.i];
    if (c === '"' || c === "'") return this.string();
    if (c === "[") return this.array();
    if (c === "{") throw new TomlError(pos, "inline tables ({...}) are not supported here; use a [table] header");
    const m = /^[^\s,\]#]+/.exec(this.text.slice(this.i, this.i + 64));
    const word = m?.[0] ?? "";
    this.i += word.length;
    if (word === "true" || word === "false") return { kind: "boolean", value: word === "true", pos };
    if (/^[+-]?(0|[1-9](_?[0-9])*)$/.test(word)) {
      const value = Number(word.replace(/_/g, ""));
      if (!Number.isSafeInteger(value)) throw new TomlError(pos, `integer ${word} is too large`);
      return { kind: "integer", value, pos };
    }
    if (word === "") throw new TomlError(pos, c === undefined || c === "\n" || c === "\r" ? "expected a value" : `expected a value, found '${c}'`);
    throw new TomlError(pos, `expected a string, integer, boolean or array, found '${word}'`);
  }

  private string(): { kind: "string"; value: string; pos: TomlPos } {
    const pos = this.pos();
    const quote = this.text[this.i]!;
    if (this.text.startsWith(quote.repeat(3), this.i)) throw new TomlError(pos, "multi-line strings are not supported here");
    this.i++;
    let value = "";
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined || c === "\n" || c === "\r") throw new TomlError(pos, "unterminated string");
      this.i++;
      if (c === quote) return { kind: "string", value, pos };
      if (c === "\\" && quote === '"') value += this.escape();
      else value += c;
    }
  }

  private escape(): string {
    const pos = { line: this.pos().line, col: this.pos().col - 1 };
    const c = this.text[this.i++];
    if (c !== undefined && c in ESCAPES) return ESCAPES[c]!;
    if (c === "u" || c === "U") {
      const n = c === "u" ? 4 : 8;
      const hex = this.text.slice(this.i, this.i + n);
      const code = /^[0-9A-Fa-f]+$/.test(hex) && hex.length === n ? Number.parseInt(hex, 16) : Number.NaN;
      if (!(code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) throw new TomlError(pos, `bad unicode escape \\${c}${hex}`);
      this.i += n;
      return String.fromCodePoint(code);
    }
    throw new TomlError(pos, `unknown escape \\${c ?? ""}`);
  }

  private array(): TomlValue {
    const pos = this.pos();
    this.i++;
    const items: TomlValue[] = [];
    for (;;) {
      this.skipBlank();
      if (this.text[this.i] === "]") break;
      items.push(this.value());
      this.skipBlank();
      if (this.text[this.i] === ",") {
        this.i++;
        continue;
      }
      if (this.text[this.i] !== "]") throw new TomlError(this.pos(), "expected ',' or ']' in the array");
      break;
    }
    this.i++;
    return { kind: "array", items, pos };
  }

  private expect(c: string): void {
    if (this.text[this.i] !== c) {
      const found = this.text[this.i];
      throw new TomlError(this.pos(), `expected '${c}'${found === undefined || found === "\n" ? "" : `, found '${found}'`}`);
    }
    this.i++;
  }

  /** After a header or value: only spaces and a comment may follow on the line. */
  private endOfLine(): void {
    this.skipSpaces();
    if (this.text[this.i] === "#") this.skipLine();
    const c = this.text[this.i];
    if (c === undefined) return;
    if (c === "\n" || (c === "\r" && this.text[this.i + 1] === "\n")) {
      this.i += c === "\n" ? 1 : 2;
      return;
    }
    throw new TomlError(this.pos(), `expected the end of the line, found '${c}'`);
  }

  private skipSpaces(): void {
    while (this.text[this.i] === " " || this.text[this.i] === "\t") this.i++;
  }

  /** Spaces, newlines and comments. */
  private skipBlank(): void {
    for (;;) {
      const c = this.text[this.i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") this.i++;
      else if (c === "#") this.skipLine();
      else return;
    }
  }

  private skipLine(): void {
    while (this.i < this.text.length && this.text[this.i] !== "\n") this.i++;
  }

  private pos(): TomlPos {
    let line = 1;
    let lineStart = 0;
    for (let j = this.text.indexOf("\n"); j !== -1 && j < this.i; j = this.text.indexOf("\n", j + 1)) {
      line++;
      lineStart = j + 1;
    }
    return { line, col: this.i - lineStart + 1 };
  }
}
