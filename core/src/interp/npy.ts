// Reading NumPy .npy files (format 1.0-3.0) into tensors: little- and big-endian numbers,
// bool, fixed-width unicode strings, C and Fortran order.
import { OnnxtxtError } from "../io/index.js";
import { allocData, DT, tensor, type Tensor, type TensorData } from "./value.js";
import { transpose } from "./ops/shape.js";

const DESCR: Record<string, number> = {
  f4: DT.FLOAT,
  f8: DT.DOUBLE,
  f2: DT.FLOAT16,
  i1: DT.INT8,
  u1: DT.UINT8,
  i2: DT.INT16,
  u2: DT.UINT16,
  i4: DT.INT32,
  u4: DT.UINT32,
  i8: DT.INT64,
  u8: DT.UINT64,
  b1: DT.BOOL,
};

export function parseNpy(bytes: Uint8Array): Tensor {
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (bytes.length < 10 || magic.some((m, i) => bytes[i] !== m)) throw new OnnxtxtError("not a .npy file (bad magic)");
  const major = bytes[6]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  const header = new TextDecoder(major === 3 ? "utf-8" : "latin1").decode(bytes.subarray(start, start + headerLen));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*True/.test(header);
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || shapeText === undefined) throw new OnnxtxtError("malformed .npy header");
  const dims = shapeText
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map(Number);
  const body = bytes.subarray(start + headerLen);
  const order = descr[0]!;
  const code = descr.slice(1);
  const n = dims.reduce((a, b) => a * b, 1);
  let t: Tensor;
  if (code.startsWith("U")) {
    const width = Number(code.slice(1));
    if (body.length < n * width * 4) throw new OnnxtxtError(`.npy data holds ${body.length} bytes, needs ${n * width * 4}`);
    const out: string[] = [];
    const dv = new DataView(body.buffer, body.byteOffset, body.byteLength);
    for (let i = 0; i < n; i++) {
      let s = "";
      for (let k = 0; k < width; k++) {
        const cp = dv.getUint32((i * width + k) * 4, order !== ">");
        if (cp === 0) break;
        s += String.fromCodePoint(cp);
      }
      out.push(s);
    }
    t = tensor(DT.STRING, dims, out);
  } else {
    const dtype = DESCR[code];
    if (dtype === undefined) throw new OnnxtxtError(`unsupported .npy element type '${descr}'`);
    // The header's shape is checked against the bytes before anything is allocated for it.
    const size = (allocData(dtype, 0) as Exclude<TensorData, string[]>).BYTES_PER_ELEMENT;
    if (body.length < n * size) throw new OnnxtxtError(`.npy data holds ${body.length} bytes, needs ${n * size}`);
    t = tensor(dtype, dims);
    const data = t.data as Exclude<TensorData, string[]>;
    const raw = new Uint8Array(data.buffer, data.byteOffset, n * size);
    raw.set(body.subarray(0, n * size));
    if (order === ">" && size > 1) {
      for (let i = 0; i < n; i++) raw.subarray(i * size, (i + 1) * size).reverse();
    }
  }
  if (fortran && dims.length > 1) {
    const rev = dims.slice().reverse();
    const asC = tensor(t.dtype, rev, t.data);
    return transpose(
      asC,
      rev.map((_, i) => rev.length - 1 - i),
    );
  }
  return t;
}
