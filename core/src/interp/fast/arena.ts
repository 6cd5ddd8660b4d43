// The kernels' working memory: one shared WebAssembly memory that the main thread and the
// helper threads all see. Each kernel call takes scratch space from a bump allocator and
// gives it all back when it ends; the memory only grows.

import { claimBytes } from "../budget.js";
import { createSharedMemory } from "./wasm/kernel-instance.js";

const PAGE_BYTES = 65536;
const ALIGN = 64;
/** Offset 0 means "no buffer" to the kernels, so allocation starts after a small gap. */
const FIRST_OFFSET = ALIGN;
/** Rows of A past M are read (and their results dropped); keep them inside the memory. */
const TAIL_SLACK = 64 * 1024;

export class Arena {
  readonly memory: WebAssembly.Memory;
  private f32View: Float32Array;
  private top = FIRST_OFFSET;

  constructor(memory: WebAssembly.Memory = createSharedMemory()) {
    this.memory = memory;
    this.f32View = new Float32Array(memory.buffer);
  }

  /** A Float32Array over the whole memory (refreshed after growth). */
  get f32(): Float32Array {
    if (this.f32View.byteLength !== this.memory.buffer.byteLength) this.f32View = new Float32Array(this.memory.buffer);
    return this.f32View;
  }

  /** Byte offset of a fresh, 64-byte aligned block of `floats` floats. */
  alloc(floats: number): number {
    claimBytes(floats * 4, () => `kernel scratch of ${floats} floats`);
    const offset = this.top;
    this.top = align(offset + floats * 4);
    this.ensure(this.top + TAIL_SLACK);
    return offset;
  }

  /** Frees everything allocated since `mark()` returned `m`. */
  mark(): number {
    return this.top;
  }

  release(m: number): void {
    this.top = m;
  }

  private ensure(bytes: number): void {
    const have = this.memory.buffer.byteLength;
    if (bytes <= have) return;
    // Grow by at least a quarter to keep the number of growths small.
    const need = Math.max(Math.ceil((bytes - have) / PAGE_BYTES), Math.ceil(have / PAGE_BYTES / 4));
    try {
      this.memory.grow(need);
    } catch {
      this.memory.grow(Math.ceil((bytes - have) / PAGE_BYTES));
    }
  }
}

function align(bytes: number): number {
  return Math.ceil(bytes / ALIGN) * ALIGN;
}
