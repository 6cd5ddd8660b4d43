// A tiny WebAssembly binary writer: just enough to emit our numeric kernels at load time
// (one imported shared memory, i32/f32/v128 locals, structured control flow, SIMD).
// Building the bytes in code keeps the kernels readable and parametrised without a
// toolchain or a committed generated artifact.

type ValType = "i32" | "f32" | "v128";

const VALTYPE_CODE: Record<ValType, number> = { i32: 0x7f, f32: 0x7d, v128: 0x7b };

function uleb(value: number, out: number[]): void {
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
}

function sleb(value: number, out: number[]): void {
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return;
  }
}

function encodeString(text: string, out: number[]): void {
  const bytes = new TextEncoder().encode(text);
  uleb(bytes.length, out);
  out.push(...bytes);
}

function section(id: number, body: number[], out: number[]): void {
  out.push(id);
  uleb(body.length, out);
  out.push(...body);
}

/** A local variable handle inside one function body. */
export interface Local {
  readonly index: number;
  readonly type: ValType;
}

/** Emits one function body; methods append instructions and return `this` for chaining. */
export class FunctionBuilder {
  readonly code: number[] = [];
  private readonly extraLocals: ValType[] = [];
  readonly params: Local[];

  constructor(
    readonly name: string,
    paramTypes: readonly ValType[],
    readonly resultTypes: readonly ValType[] = [],
  ) {
    this.params = paramTypes.map((type, index) => ({ index, type }));
  }

  get paramTypes(): ValType[] {
    return this.params.map((p) => p.type);
  }

  local(type: ValType): Local {
    const local = { index: this.params.length + this.extraLocals.length, type };
    this.extraLocals.push(type);
    return local;
  }

  private op(...bytes: number[]): this {
    this.code.push(...bytes);
    return this;
  }

  private simd(opcode: number): this {
    this.code.push(0xfd);
    uleb(opcode, this.code);
    return this;
  }

  private memarg(align: number, offset: number): void {
    uleb(align, this.code);
    uleb(offset, this.code);
  }

  get(l: Local): this {
    this.code.push(0x20);
    uleb(l.index, this.code);
    return this;
  }
  set(l: Local): this {
    this.code.push(0x21);
    uleb(l.index, this.code);
    return this;
  }
  tee(l: Local): this {
    this.code.push(0x22);
    uleb(l.index, this.code);
    return this;
  }

  i32(value: number): this {
    this.code.push(0x41);
    sleb(value, this.code);
    return this;
  }
  f32(value: number): this {
    this.code.push(0x43);
    const bytes = new Uint8Array(new Float32Array([value]).buffer);
    this.code.push(...bytes);
    return this;
  }

  i32Add(): this {
    return this.op(0x6a);
  }
  i32Sub(): this {
    return this.op(0x6b);
  }
  i32Mul(): this {
    return this.op(0x6c);
  }
  i32Shl(): this {
    return this.op(0x74);
  }
  i32DivU(): this {
    return this.op(0x6e);
  }
  i32Eqz(): this {
    return this.op(0x45);
  }
  i32Ne(): this {
    return this.op(0x47);
  }
  i32LtS(): this {
    return this.op(0x48);
  }
  i32LtU(): this {
    return this.op(0x49);
  }
  i32GeS(): this {
    return this.op(0x4e);
  }
  i32LeS(): this {
    return this.op(0x4c);
  }
  i32GtS(): this {
    return this.op(0x4a);
  }
  i32And(): this {
    return this.op(0x71);
  }

  i32Load(offset = 0): this {
    this.code.push(0x28);
    this.memarg(2, offset);
    return this;
  }
  f32Load(offset = 0): this {
    this.code.push(0x2a);
    this.memarg(2, offset);
    return this;
  }
  f32Store(offset = 0): this {
    this.code.push(0x38);
    this.memarg(2, offset);
    return this;
  }
  f32Add(): this {
    return this.op(0x92);
  }
  f32Mul(): this {
    return this.op(0x94);
  }
  f32Max(): this {
    return this.op(0x97);
  }
  f32Div(): this {
    return this.op(0x95);
  }
  f32ConvertI32S(): this {
    return this.op(0xb2);
  }
  select(): this {
    return this.op(0x1b);
  }

  v128Load(offset = 0): this {
    this.simd(0x00);
    this.memarg(2, offset);
    return this;
  }
  v128Store(offset = 0): this {
    this.simd(0x0b);
    this.memarg(2, offset);
    return this;
  }
  v128Load32Splat(offset = 0): this {
    this.simd(0x09);
    this.memarg(2, offset);
    return this;
  }
  v128Zero(): this {
    this.simd(0x0c);
    this.code.push(...new Array<number>(16).fill(0));
    return this;
  }
  f32x4Splat(): this {
    return this.simd(0x13);
  }
  f32x4Add(): this {
    return this.simd(0xe4);
  }
  f32x4Mul(): this {
    return this.simd(0xe6);
  }
  f32x4Max(): this {
    return this.simd(0xe9);
  }

  /** block ... end; `br 0` inside jumps past the end. */
  block(body: () => void): this {
    this.op(0x02, 0x40);
    body();
    return this.op(0x0b);
  }
  /** loop ... end; `br 0` inside jumps back to the start. */
  loop(body: () => void): this {
    this.op(0x03, 0x40);
    body();
    return this.op(0x0b);
  }
  ifThen(then: () => void, otherwise?: () => void): this {
    this.op(0x04, 0x40);
    then();
    if (otherwise) {
      this.op(0x05);
      otherwise();
    }
    return this.op(0x0b);
  }
  br(depth: number): this {
    this.code.push(0x0c);
    uleb(depth, this.code);
    return this;
  }
  brIf(depth: number): this {
    this.code.push(0x0d);
    uleb(depth, this.code);
    return this;
  }

  /**
   * `for (counter = 0; counter < limit; counter++) body()` with `limit` > 0 not required:
   * the body runs while counter < limit (signed compare).
   */
  forRange(counter: Local, limit: Local, body: () => void): this {
    this.i32(0).set(counter);
    return this.block(() => {
      this.get(counter).get(limit).i32GeS().brIf(0);
      this.loop(() => {
        body();
        this.get(counter).i32(1).i32Add().tee(counter).get(limit).i32LtS().brIf(0);
      });
    });
  }

  /** `target += delta` for i32 locals. */
  addTo(target: Local, delta: number | Local): this {
    this.get(target);
    if (typeof delta === "number") this.i32(delta);
    else this.get(delta);
    return this.i32Add().set(target);
  }

  encodeBody(): number[] {
    const body: number[] = [];
    // Group consecutive locals of one type.
    const groups: Array<[number, ValType]> = [];
    for (const type of this.extraLocals) {
      const last = groups[groups.length - 1];
      if (last && last[1] === type) last[0]++;
      else groups.push([1, type]);
    }
    uleb(groups.length, body);
    for (const [count, type] of groups) {
      uleb(count, body);
      body.push(VALTYPE_CODE[type]);
    }
    body.push(...this.code, 0x0b);
    const sized: number[] = [];
    uleb(body.length, sized);
    return sized.concat(body);
  }
}

interface MemoryImport {
  module: string;
  name: string;
  initialPages: number;
  maximumPages: number;
  shared: boolean;
}

/** Assembles a module importing one memory and exporting every function by name. */
export function assembleModule(memory: MemoryImport, functions: readonly FunctionBuilder[]): Uint8Array {
  const out: number[] = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

  const types: number[] = [];
  uleb(functions.length, types);
  for (const fn of functions) {
    types.push(0x60);
    uleb(fn.paramTypes.length, types);
    for (const t of fn.paramTypes) types.push(VALTYPE_CODE[t]);
    uleb(fn.resultTypes.length, types);
    for (const t of fn.resultTypes) types.push(VALTYPE_CODE[t]);
  }
  section(1, types, out);

  const imports: number[] = [];
  uleb(1, imports);
  encodeString(memory.module, imports);
  encodeString(memory.name, imports);
  imports.push(0x02, memory.shared ? 0x03 : 0x01);
  uleb(memory.initialPages, imports);
  uleb(memory.maximumPages, imports);
  section(2, imports, out);

  const funcs: number[] = [];
  uleb(functions.length, funcs);
  functions.forEach((_, i) => uleb(i, funcs));
  section(3, funcs, out);

  const exports: number[] = [];
  uleb(functions.length, exports);
  functions.forEach((fn, i) => {
    encodeString(fn.name, exports);
    exports.push(0x00);
    uleb(i, exports);
  });
  section(7, exports, out);

  const code: number[] = [];
  uleb(functions.length, code);
  for (const fn of functions) code.push(...fn.encodeBody());
  section(10, code, out);

  return Uint8Array.from(out);
}
