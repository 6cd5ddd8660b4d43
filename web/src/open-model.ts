// A dropped or opened .onnx, decoded and printed in the page. Its external data comes from
// the other files dropped with it, found by the location the model names.
import { decodeModel, inlineExternalData, OnnxtxtError } from "../../core/src/io/index.js";
import { printModel } from "../../core/src/print-model.js";

export interface Opened {
  readonly name: string;
  readonly text: string;
}

/** The text of the .onnx among `files`, or a message saying why not. */
export async function openModelFiles(files: readonly File[]): Promise<Opened | { readonly message: string }> {
  const onnx = files.filter((f) => /\.onnx$/i.test(f.name));
  const texts = files.filter((f) => /\.onnxtxt$/i.test(f.name));
  if (onnx.length === 0 && texts.length === 1) return { name: texts[0]!.name, text: await texts[0]!.text() };
  if (onnx.length !== 1)
    return { message: `Drop one .onnx (with its external data files, if any) or one .onnxtxt; got ${files.map((f) => f.name).join(", ")}` };
  const data = new Map<string, Uint8Array>();
  for (const f of files) if (f !== onnx[0]) data.set(f.name, new Uint8Array(await f.arrayBuffer()));
  try {
    const model = decodeModel(new Uint8Array(await onnx[0]!.arrayBuffer()), { owned: true });
    inlineExternalData(model, ".", (file, offset, length) => {
      const name = file.replace(/^\.\//, "");
      const bytes = data.get(name);
      if (!bytes) throw new OnnxtxtError(`the model keeps tensor data in '${name}': drop that file together with ${onnx[0]!.name}`);
      return bytes.subarray(offset, length === undefined ? undefined : offset + length);
    });
    return { name: onnx[0]!.name.replace(/\.onnx$/i, ".onnxtxt"), text: printModel(model) };
  } catch (e) {
    return { message: `${onnx[0]!.name}: ${e instanceof Error ? e.message : String(e)}` };
  }
}
