// Fast message construction. protobuf-es's create() interprets the schema on every call (several
// microseconds a message), which dominated lowering a large graph. A proto2 message is a plain
// object whose prototype holds the scalar defaults, with its repeated fields and oneofs as own
// properties; a factory copies that layout from one create() result. A test checks that factory
// messages are equal to create() ones, report presence the same way and serialize identically.
import { create, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { NodeProtoSchema, type NodeProto } from "../../../proto/src/index.js";

export function messageFactory<Desc extends DescMessage>(schema: Desc): () => MessageShape<Desc> {
  const sample = create(schema) as unknown as Record<string, unknown>;
  const proto = Object.getPrototypeOf(sample) as object;
  const keys = Object.keys(sample);
  const kinds = keys.map((k) => {
    const v = sample[k];
    return Array.isArray(v) ? 1 : typeof v === "object" && v !== null ? 2 : 0;
  });
  // A constructor function gives every message the same hidden class from the start.
  function Message(this: Record<string, unknown>): void {}
  Message.prototype = proto;
  const Ctor = Message as unknown as new () => Record<string, unknown>;
  return () => {
    const m = new Ctor();
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const kind = kinds[i];
      m[k] = kind === 1 ? [] : kind === 2 ? { ...(sample[k] as object) } : sample[k];
    }
    return m as MessageShape<Desc>;
  };
}

/** The fields every lowered node sets; the rest keep their defaults. */
interface NodeCore {
  readonly input: string[];
  readonly output: string[];
  readonly opType: string;
  readonly domain: string;
}

/**
 * NodeProto, the message a big graph has tens of thousands of, with its own properties written
 * out (the generic factory's loop over keys costs about as much again) and the always-set fields
 * given up front, so that every one sits inside the object. The messages test checks it against
 * create().
 */
export function nodeFactory(): (core: NodeCore) => NodeProto {
  const sample = create(NodeProtoSchema);
  const own = Object.keys(sample).join(",");
  if (own !== "$typeName,input,output,attribute,metadataProps,deviceConfigurations") {
    const make = messageFactory(NodeProtoSchema);
    return (core) => Object.assign(make(), core);
  }
  function Node(this: NodeProto, core: NodeCore): void {
    const m = this as { -readonly [K in keyof NodeProto]: NodeProto[K] };
    m.$typeName = sample.$typeName;
    m.input = core.input;
    m.output = core.output;
    m.opType = core.opType;
    m.domain = core.domain;
    m.attribute = [];
    m.metadataProps = [];
    m.deviceConfigurations = [];
  }
  Node.prototype = Object.getPrototypeOf(sample) as object;
  const Ctor = Node as unknown as new (core: NodeCore) => NodeProto;
  return (core) => new Ctor(core);
}
