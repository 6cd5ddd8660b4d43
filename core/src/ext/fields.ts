// Field-level access to protobuf messages by proto field name, for the extension data:
// raise copies fields the text cannot carry into JSON, and the reader copies them back.
import {
  clearField,
  create,
  fromJson,
  isFieldSet,
  toJson,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type MessageShape,
} from "@bufbuild/protobuf";
import { OnnxtxtError } from "../io/errors.js";

/** Messages are plain objects; dynamic access by local field name happens only here. */
type Fields = Record<string, unknown>;

const byName = new WeakMap<DescMessage, Map<string, DescField>>();

export function fieldByName(schema: DescMessage, protoName: string): DescField {
  let fields = byName.get(schema);
  if (!fields) {
    fields = new Map();
    for (const x of schema.fields) {
      fields.set(x.name, x);
      fields.set(x.jsonName, x);
    }
    byName.set(schema, fields);
  }
  const f = fields.get(protoName);
  if (!f) throw new OnnxtxtError(`${schema.name} has no field '${protoName}'`);
  return f;
}

export function isSet(schema: DescMessage, msg: object, protoName: string): boolean {
  return isFieldSet(msg as MessageShape<DescMessage>, fieldByName(schema, protoName));
}

/** The JSON (proto field names) of the listed fields that are set in `msg`. */
export function fieldsJson<Desc extends DescMessage>(schema: Desc, msg: MessageShape<Desc>, names: readonly string[]): JsonObject {
  let part: Fields | undefined;
  for (const n of names) {
    const f = fieldByName(schema, n);
    if (!isFieldSet(msg, f)) continue;
    const key = f.oneof ? f.oneof.localName : f.localName;
    part ??= create(schema) as unknown as Fields;
    part[key] = (msg as unknown as Fields)[key];
  }
  if (!part) return {};
  return toJson(schema, part as unknown as MessageShape<Desc>, { useProtoFieldName: true }) as JsonObject;
}

/** Sets one field of `target` from its JSON value, replacing what was there. */
export function setFieldJson<Desc extends DescMessage>(schema: Desc, target: MessageShape<Desc>, protoName: string, value: JsonValue): void {
  const f = fieldByName(schema, protoName);
  let part: Fields;
  try {
    part = fromJson(schema, { [f.name]: value }) as unknown as Fields;
  } catch (e) {
    throw new OnnxtxtError(`bad value for ${schema.name}.${f.name}: ${(e as Error).message}`);
  }
  const key = f.oneof ? f.oneof.localName : f.localName;
  (target as unknown as Fields)[key] = part[key];
}

export function clearByName<Desc extends DescMessage>(schema: Desc, target: MessageShape<Desc>, protoName: string): void {
  clearField(target, fieldByName(schema, protoName));
}
