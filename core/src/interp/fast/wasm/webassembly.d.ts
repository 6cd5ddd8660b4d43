// The slice of the WebAssembly JS API our modules use (these kernels, the printer's float32
// text). The project compiles against lib ES2022 without DOM types, where `WebAssembly` is not
// declared; Node 20 provides it.

export {};

declare global {
  namespace WebAssembly {
    interface MemoryDescriptor {
      initial: number;
      maximum?: number;
      shared?: boolean;
    }
    class Memory {
      constructor(descriptor: MemoryDescriptor);
      readonly buffer: ArrayBuffer | SharedArrayBuffer;
      grow(deltaPages: number): number;
    }
    class Module {
      constructor(bytes: Uint8Array);
    }
    class Instance {
      constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
      readonly exports: Record<string, unknown>;
    }
    function validate(bytes: Uint8Array): boolean;
  }
}
