// What the text of one element cannot say: the fields to restore and the fields whose
// presence the text would add. It becomes a `#@KIND {json}` extension comment.
import type { DescMessage, JsonObject, JsonValue, MessageShape } from "@bufbuild/protobuf";
import { fieldsJson } from "../ext/fields.js";

export class Residual {
  private readonly data: Record<string, JsonValue> = {};
  private readonly clears: string[] = [];

  /** Keeps the listed fields of `msg` that are set. */
  keep<Desc extends DescMessage>(schema: Desc, msg: MessageShape<Desc>, names: readonly string[]): this {
    Object.assign(this.data, fieldsJson(schema, msg, names));
    return this;
  }

  /** The text sets this field, but the message does not have it. */
  clear(field: string): this {
    if (!this.clears.includes(field)) this.clears.push(field);
    return this;
  }

  put(key: string, value: JsonValue): this {
    this.data[key] = value;
    return this;
  }

  get empty(): boolean {
    return this.clears.length === 0 && Object.keys(this.data).length === 0;
  }

  toJson(): JsonObject {
    return this.clears.length ? { ...this.data, "@clear": this.clears } : { ...this.data };
  }
}
