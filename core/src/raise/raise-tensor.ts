// TensorProto -> type + data text. Whatever the text cannot hold (segment, doc string,
// metadata, storage in raw_data, NaN payloads, data in an unexpected field) goes into the
// element's residual.
import type * as A from "../../../grammar/src/ast.js";
import { isElementType } from "../../../grammar/src/keywords.js";
import { TensorProtoSchema, TensorProto_DataLocation, dataTypeByName, dataTypeInfo, type TensorProto } from "../../../proto/src/index.js";
import { rawElementSize } from "../ext/raw-data.js";
import { movedOut } from "../ext/externalize.js";
import { isSet } from "../ext/fields.js";
import { int, keyword, NO_SPAN, propList } from "./ast-build.js";
import type { RaiseContext } from "./context.js";
import { Residual } from "./residual.js";
import { canBeRaw, rawElements, typedElements, type RaisedElements } from "./tensor-data.js";

const DATA_FIELDS = ["float_data", "int32_data", "string_data", "int64_data", "raw_data", "double_data", "uint64_data"] as const;
const LOCAL_TO_PROTO: Record<string, string> = {
  floatData: "float_data",
  int32Data: "int32_data",
  stringData: "string_data",
  int64Data: "int64_data",
  doubleData: "double_data",
  uint64Data: "uint64_data",
};

interface RaisedTensor {
  readonly type: A.TensorType;
  readonly data: A.TensorData;
  readonly residual: Residual;
}

function setDataFields(t: TensorProto): string[] {
  return DATA_FIELDS.filter((f) => isSet(TensorProtoSchema, t, f));
}

function inline(elements: readonly A.Literal[] | A.PackedNumbers): A.InlineData {
  return { kind: "InlineData", span: NO_SPAN, elements };
}

/** The element type a tensor is printed with, and whether that is its own. */
function printedType(t: TensorProto): { info: ReturnType<typeof dataTypeInfo>; keywordOk: boolean } {
  const known = isSet(TensorProtoSchema, t, "data_type") ? dataTypeInfo(t.dataType) : undefined;
  // A type without a keyword (float6*, unknown ids) prints as uint8, which stores its data
  // the same way (int32_data, one byte per raw element); the residual restores data_type.
  const keywordOk = known !== undefined && isElementType(known.name);
  const info = keywordOk ? known : known?.storage === "int32Data" && rawElementSize(known.id) === 1 ? dataTypeByName("uint8") : undefined;
  return { info, keywordOk };
}

/** Whether the tensor is written as `[external ...]` data (not inline). */
export function writtenAsExternal(t: TensorProto): boolean {
  const external = t.dataLocation === TensorProto_DataLocation.EXTERNAL && isSet(TensorProtoSchema, t, "data_location");
  return external && t.externalData.length > 0 && printedType(t).info !== undefined;
}

/** Raises a tensor's type and data; the caller decides about the name. */
export function raiseTensor(t: TensorProto, ctx: RaiseContext, inAttribute = false): RaisedTensor {
  const rawDefault = inAttribute ? ctx.defaults.attrRawStorage : ctx.defaults.rawStorage;
  const residual = new Residual();
  const { info, keywordOk } = printedType(t);
  const type: A.TensorType = {
    kind: "TensorType",
    span: NO_SPAN,
    elem: keyword(info?.name ?? "uint8"),
    ...(t.dims.length ? { shape: { kind: "Shape", span: NO_SPAN, dims: t.dims.map((d) => ({ kind: "Dim", span: NO_SPAN, value: int(d) })) } } : {}),
  };
  if (!keywordOk) {
    if (isSet(TensorProtoSchema, t, "data_type")) residual.keep(TensorProtoSchema, t, ["data_type"]);
    else residual.clear("data_type");
  }
  residual.keep(TensorProtoSchema, t, ["segment", "doc_string", "metadata_props"]);

  const setData = setDataFields(t);
  if (writtenAsExternal(t)) {
    residual.keep(TensorProtoSchema, t, setData);
    const moved = movedOut.get(t);
    if (moved) residual.put("@external", moved);
    return { type, data: { kind: "ExternalData", span: NO_SPAN, props: propList(t.externalData) }, residual };
  }
  residual.keep(TensorProtoSchema, t, ["external_data", "data_location"]);

  let elements: RaisedElements | undefined;
  let raw = false;
  if (info && setData.length === 1 && setData[0] === "raw_data" && canBeRaw(t.dataType)) {
    elements = rawElements(t, info.id);
    raw = elements !== undefined;
  } else if (info && setData.length === 1 && setData[0] === LOCAL_TO_PROTO[info.storage]) {
    // (uint8 standing in for a type without keyword reads raw bytes the same way)
    elements = typedElements(t, info.storage);
  } else if (info && setData.length === 0) {
    elements = { elements: [], nanBits: {} };
  }
  if (!elements) {
    // Data the text cannot express (wrong field, odd raw length, non-UTF-8 strings): keep it all.
    residual.keep(TensorProtoSchema, t, setData);
    if (rawDefault) residual.put("@storage", "typed");
    return { type, data: inline([]), residual };
  }
  if (Object.keys(elements.nanBits).length) residual.put("@nan", elements.nanBits);
  if (raw !== rawDefault && (raw || canBeRaw(t.dataType))) residual.put("@storage", raw ? "raw" : "typed");
  return { type, data: inline(elements.elements), residual };
}
