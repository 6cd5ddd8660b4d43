// Field presence with descriptors looked up once per module, not per message: raise checks a
// handful of fields on every node of graphs that can hold a hundred thousand nodes.
import { isFieldSet, type DescField, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { fieldByName } from "../ext/fields.js";

type Message = Readonly<Record<string, unknown>>;

export interface Fields<Desc extends DescMessage> {
  readonly schema: Desc;
  readonly fields: readonly DescField[];
  /** Per field, whether a message sets it: `isFieldSet`'s answer without its generic dispatch. */
  readonly isSet: readonly ((msg: Message) => boolean)[];
}

export function fieldsOf<Desc extends DescMessage>(schema: Desc, names: readonly string[]): Fields<Desc> {
  const fields = names.map((n) => fieldByName(schema, n));
  return { schema, fields, isSet: fields.map(presenceTest) };
}

/**
 * onnx.proto is proto2: a singular field is set when the message has it as an own property (the
 * defaults sit on the prototype); a list when it is not empty. Anything else asks the library.
 */
function presenceTest(field: DescField): (msg: Message) => boolean {
  const name = field.localName;
  if (field.fieldKind === "list") return (msg) => (msg[name] as readonly unknown[]).length > 0;
  if (field.oneof === undefined && field.fieldKind !== "map" && field.presence !== FeatureSet_FieldPresence.IMPLICIT) return (msg) => isOwnField(msg, name);
  return (msg) => isFieldSet(msg as MessageShape<DescMessage>, field);
}

/**
 * A proto2 singular field's presence: an own property. For the hottest paths (every node of a
 * big graph), which name the field rather than go through a `Fields` table's test.
 */
export function isOwnField<M extends object>(msg: M, key: keyof M & string): boolean {
  return msg[key] !== undefined && Object.hasOwn(msg, key);
}

export function has<Desc extends DescMessage>(msg: MessageShape<Desc>, f: Fields<Desc>, index = 0): boolean {
  return f.isSet[index]!(msg as unknown as Message);
}

/** The proto names of the listed fields that `msg` sets (usually none: an empty array). */
export function setNames<Desc extends DescMessage>(msg: MessageShape<Desc>, f: Fields<Desc>): string[] {
  let out: string[] | undefined;
  for (let i = 0; i < f.fields.length; i++) if (f.isSet[i]!(msg as unknown as Message)) (out ??= []).push(f.fields[i]!.name);
  return out ?? NONE;
}

const NONE: string[] = [];
