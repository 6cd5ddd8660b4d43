import * as fs from "node:fs";
import { toJson } from "@bufbuild/protobuf";
import { ModelProtoSchema } from "./dist/proto/src/index.js";
import { decodeModel } from "./dist/core/src/io/index.js";
import { printModel } from "./dist/core/src/print/print-model.js";
import { modelFromText } from "./dist/core/src/text.js";
const m = decodeModel(new Uint8Array(fs.readFileSync(process.argv[2])));
const t = printModel(m);
const b = modelFromText(t);
if (!b.model) { console.log(t); console.log(b.diagnostics); process.exit(); }
const a = JSON.stringify(toJson(ModelProtoSchema, m), null, 1).split("\n"), c = JSON.stringify(toJson(ModelProtoSchema, b.model), null, 1).split("\n");
for (let i = 0; i < Math.max(a.length, c.length); i++) if (a[i] !== c[i]) { console.log(i, "orig:", a.slice(i-3, i+5).join(" "), "\nback:", c.slice(i-3,i+5).join(" ")); break; }
console.log(t.slice(0, 1500));
console.log(m.$unknown, m.graph?.$unknown);
import { encodeModel } from "./dist/core/src/io/index.js";
const x = encodeModel(m), y = encodeModel(b.model);
console.log(x.length, y.length);
for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) { console.log("at", i, Buffer.from(x.subarray(i-20, i+20)).toString("latin1"), "|||", Buffer.from(y.subarray(i-20, i+20)).toString("latin1")); break; }
console.log(Buffer.from(x.subarray(230)).toString("hex"), "\n", Buffer.from(y.subarray(230)).toString("hex"));
console.log(m.opsetImport, b.model.opsetImport);
