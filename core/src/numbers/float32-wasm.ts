// The WebAssembly float32 text module (core/wasm/float32-text.ts): instantiated on first use
// with the digit tables from float32-digits.ts. Values it cannot decide come back to
// `slowText`, the exact path in JavaScript.
/// <reference path="../interp/fast/wasm/webassembly.d.ts" />
import type { ByteWriter } from "./byte-writer.js";
import type { FillLayout } from "./fill-layout.js";
import { FAST_PATH_TABLES } from "./float32-digits.js";
import { FLOAT32_TEXT_WASM } from "./float32-wasm-binary.js";

interface Float32TextExports {
  readonly memory: WebAssembly.Memory;
  tablesEnd(): number;
  init(): void;
  digits(v: number): number;
  resultK(): number;
  resultScale(): number;
  spellScaled(at: number, k: number, scale: number, negative: number): number;
  /** The end of v's text written at `at`, or 0 when JavaScript must spell it. */
  format(v: number, at: number): number;
  fill(
    values: number,
    from: number,
    to: number,
    total: number,
    out: number,
    col: number,
    width: number,
    indentWidth: number,
    lineBreak: number,
    breakLen: number,
    sep: number,
  ): number;
  column(): number;
}

/** The most bytes one float32 takes as text (`-0.00000` and nine digits, `-1e+21` forms). */
const FLOAT32_TEXT_MAX = 24;

const PAGE = 65536;
const SCRATCH_BYTES = 64;
const align8 = (n: number): number => (n + 7) & ~7;
/** Values per fill call: big tensors go through in chunks, so the memory stays small. */
const CHUNK = 1 << 16;

let compiled: WebAssembly.Module | undefined;
let current: { exports: Float32TextExports; scratch: number } | undefined;
/** The text of a value the module defers to JavaScript, during a fill. */
let slowText: ((v: number) => string) | undefined;

/** The module's `slow` import: writes slowText(v) at `at`; returns the end. */
function writeSlow(v: number, at: number): number {
  if (!slowText) throw new Error("the float32 text module deferred a value outside a fill");
  const text = slowText(v);
  const bytes = new Uint8Array(module().memory.buffer, at, text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return at + text.length;
}

function instance(): { exports: Float32TextExports; scratch: number } {
  if (current) return current;
  // atob, not Buffer: the printer runs in browsers too (the playground).
  compiled ??= new WebAssembly.Module(Uint8Array.from(atob(FLOAT32_TEXT_WASM), (c) => c.charCodeAt(0)));
  const inst = new WebAssembly.Instance(compiled, { env: { slow: writeSlow } });
  const exports = inst.exports as unknown as Float32TextExports;
  const scratch = align8(exports.tablesEnd()); // room for one value's text, then a fill's line break
  exports.memory.grow(Math.ceil((scratch + SCRATCH_BYTES) / PAGE));
  let at = 0;
  for (const table of Object.values(FAST_PATH_TABLES)) {
    new Uint8Array(exports.memory.buffer, at, table.byteLength).set(new Uint8Array(table.buffer, table.byteOffset, table.byteLength));
    at += table.byteLength;
  }
  // The module's own table (digit groups) follows ours: a different end means the layouts differ.
  if (at + 10000 * 4 !== exports.tablesEnd()) throw new Error("float32 text module: table layout differs from float32-digits.ts");
  exports.init();
  current = { exports, scratch };
  return current;
}

function module(): Float32TextExports {
  return instance().exports;
}

/** Memory of at least `bytes`; the module's views of it must be taken after this. */
function reserve(exports: Float32TextExports, bytes: number): void {
  const have = exports.memory.buffer.byteLength;
  if (bytes > have) exports.memory.grow(Math.ceil((bytes - have) / PAGE));
}

function ascii(memory: WebAssembly.Memory, from: number, to: number): string {
  const bytes = new Uint8Array(memory.buffer, from, to - from);
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/** Shortest float32 text of a non-NaN value, or undefined when the exact search must decide. */
export function fastFloat32Text(v: number): string | undefined {
  const { exports, scratch } = instance();
  const end = exports.format(v, scratch);
  return end ? ascii(exports.memory, scratch, end) : undefined;
}

/** The fast path's digits of |v| as [k, scale] (v = k * 10^-scale), or undefined when it defers. */
export function fastDigits(v: number): [number, number] | undefined {
  const exports = module();
  return exports.digits(v) ? [exports.resultK() >>> 0, exports.resultScale()] : undefined;
}

/** Spells k * 10^-scale (k a positive integer below 2^31) as the fast path would. */
export function spellScaled(k: number, scale: number, negative: boolean): string {
  const { exports, scratch } = instance();
  return ascii(exports.memory, scratch, exports.spellScaled(scratch, k, scale, negative ? 1 : 0));
}

/**
 * Appends `values` as float32 text to `out`, packed onto lines of `width` columns as a fill
 * of strings would be; returns the column after the last item. `slow` spells the values the
 * module defers (NaNs, subnormals, values near a rounding edge).
 */
export function writeFloat32Fill(out: ByteWriter, values: Float64Array | Float32Array, at: FillLayout, slow: (v: number) => string): number {
  const { exports, scratch } = instance();
  const breakAt = scratch + SCRATCH_BYTES;
  const valuesAt = align8(breakAt + at.lineBreak.length);
  const outAt = valuesAt + CHUNK * 8;
  reserve(exports, outAt + CHUNK * (FLOAT32_TEXT_MAX + at.lineBreak.length) + SCRATCH_BYTES);
  const memory = exports.memory.buffer;
  const bytes = new Uint8Array(memory);
  const chunk = new Float64Array(memory, valuesAt, CHUNK);
  for (let i = 0; i < at.lineBreak.length; i++) bytes[breakAt + i] = at.lineBreak.charCodeAt(i);
  const sep = at.sep.charCodeAt(0);
  let col = at.col;
  slowText = slow;
  try {
    for (let from = 0; from < values.length; from += CHUNK) {
      const to = Math.min(values.length, from + CHUNK);
      chunk.set(values.subarray(from, to));
      const end = exports.fill(valuesAt, from, to, values.length, outAt, col, at.width, at.indentWidth, breakAt, at.lineBreak.length, sep);
      col = exports.column();
      out.ensure(end - outAt);
      out.buf.set(bytes.subarray(outAt, end), out.pos);
      out.pos += end - outAt;
    }
  } finally {
    slowText = undefined;
  }
  return col;
}
