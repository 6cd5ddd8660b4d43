// What the text of one element cannot say: the fields to restore and the fields whose
// presence the text would add. It becomes a `#@KIND {json}` extension comment.
import type { DescMessage, JsonObject, JsonValue, MessageShape } from "@bufbuild/protobuf";
import { fieldsJson } from "../ext/fields.js";
import { setNames, type Fields } from "./presence.js";

export class Residual {
  // Created on first use: most elements of most models need nothing.
  private data: Record<string, JsonValue> | undefined;
  private clears: string[] | undefined;

  /** Keeps the listed fields of `msg` that are set. */
  keep<Desc extends DescMessage>(schema: Desc, msg: MessageShape<Desc>, names: readonly string[]): this {
    const json = fieldsJson(schema, msg, names);
    for (const k in json) (this.data ??= {})[k] = json[k]!;
    return this;
  }

  /** keep() with descriptors found once: nothing to do for the usual message that sets none. */
  keepSet<Desc extends DescMessage>(msg: MessageShape<Desc>, f: Fields<Desc>): this {
    const names = setNames(msg, f);
    return names.length ? this.keep(f.schema, msg, names) : this;
  }

  /** The text sets this field, but the message does not have it. */
  clear(field: string): this {
    this.clears ??= [];
    if (!this.clears.includes(field)) this.clears.push(field);
    return this;
  }

  put(key: string, value: JsonValue): this {
    (this.data ??= {})[key] = value;
    return this;
  }

  get empty(): boolean {
    return this.clears === undefined && this.data === undefined;
  }

  toJson(): JsonObject {
    return this.clears ? { ...this.data, "@clear": this.clears } : { ...this.data };
  }
}
