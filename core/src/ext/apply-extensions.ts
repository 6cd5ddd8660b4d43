// Reads the `#@KIND {json}` extension comments of a parsed text and applies them to the model
// that lowering built: model-wide defaults first, then each element's own data. Called at
// the end of modelFromText; ordinary comments are left alone.
import { clearField, fromJson, type DescMessage, type JsonObject, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import type * as A from "../../../grammar/src/ast.js";
import type { Diagnostic } from "../../../grammar/src/diagnostics.js";
import {
  AttributeProtoSchema,
  FunctionProtoSchema,
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  OperatorSetIdProtoSchema,
  StringStringEntryProtoSchema,
  TensorProtoSchema,
  ValueInfoProtoSchema,
  type AttributeProto,
  type ModelProto,
  type NodeProto,
  type TensorProto,
  type ValueInfoProto,
} from "../../../proto/src/index.js";
import { OnnxtxtError } from "../io/errors.js";
import { parseExtComment, type ExtComment, type ExtKind } from "./ext-comment.js";
import { toBringBack } from "./externalize.js";
import { isAdditive, visibleDigest } from "./digest.js";
import { setNanBits } from "./float-bits.js";
import { clearByName, setFieldJson } from "./fields.js";
import { rawField, typedToRaw } from "./raw-data.js";
import { collectTargets, firstOutput, type Target } from "./targets.js";

const SCHEMAS: Record<Exclude<ExtKind, "model">, DescMessage> = {
  graph: GraphProtoSchema,
  function: FunctionProtoSchema,
  node: NodeProtoSchema,
  attr: AttributeProtoSchema,
  value: ValueInfoProtoSchema,
  tensor: TensorProtoSchema,
};

const BLANK_OR_COMMENTS = /^(?:\s|#[^\n\r]*)*$/;

interface Found {
  readonly ext: ExtComment;
  readonly span: A.Comment["span"];
}

function isTypedEmpty(t: TensorProto): boolean {
  return t.floatData.length + t.int32Data.length + t.int64Data.length + t.doubleData.length + t.uint64Data.length + t.stringData.length === 0;
}

/** Moves a tensor's typed values into raw_data (the storage the printed model had). */
function toRaw(t: TensorProto): void {
  const field = rawField(t.dataType);
  if (!field || (t.dataLocation === 1 && t.externalData.length)) return;
  const bytes = typedToRaw(t);
  if (!bytes) return;
  t[field] = [];
  t.rawData = bytes;
}

/** Applies `@nan` where the visible element is a NaN; returns the indices where it is not. */
function applyNan(t: TensorProto, bits: JsonValue, raw: boolean): number[] {
  if (typeof bits !== "object" || bits === null || Array.isArray(bits)) throw new OnnxtxtError("@nan must map element indices to hex bit patterns");
  const wide = rawField(t.dataType) === "doubleData";
  const dv = raw ? new DataView(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength) : undefined;
  const skipped: number[] = [];
  for (const [k, v] of Object.entries(bits)) {
    const i = Number(k);
    if (typeof v !== "string" || !/^[0-9a-f]+$/i.test(v)) throw new OnnxtxtError(`@nan: '${String(v)}' is not a hex bit pattern`);
    const visible = dv ? (i * (wide ? 8 : 4) + (wide ? 8 : 4) <= dv.byteLength ? (wide ? dv.getFloat64(i * 8, true) : dv.getFloat32(i * 4, true)) : 0) : wide ? t.doubleData[i] : t.floatData[i];
    if (!Number.isInteger(i) || visible === undefined || visible === visible) {
      skipped.push(i);
      continue;
    }
    if (dv) {
      if (wide) dv.setBigUint64(i * 8, BigInt("0x" + v), true);
      else dv.setUint32(i * 4, Number.parseInt(v, 16), true);
    } else if (wide) {
      t.doubleData[i] = Number.NaN;
      setNanBits(t, TensorProtoSchema.field.doubleData.number, i, BigInt("0x" + v));
    } else {
      t.floatData[i] = Number.NaN;
      setNanBits(t, TensorProtoSchema.field.floatData.number, i, Number.parseInt(v, 16));
    }
  }
  return skipped;
}

function stringSet(v: JsonValue | undefined, what: string): Set<string> {
  if (v === undefined) return new Set();
  if (!Array.isArray(v)) throw new OnnxtxtError(`'${what}' must be a list`);
  return new Set(v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))));
}

class Applier {
  private rawDefault = false;
  private attrRawDefault = false;
  private nodeDomainUnset = false;
  private tensorNameUnset = false;
  /** File-level exceptions to the presence defaults, by node key; the matched ones are removed. */
  readonly domainExcept = new Set<string>();
  readonly tensorNameExcept = new Set<string>();
  private readonly inserts: { node: NodeProto; items: { index: number; attribute: AttributeProto }[] }[] = [];

  modelDefaults(data: JsonObject): void {
    this.nodeDomainUnset = data["@node_domain"] === "unset";
    this.tensorNameUnset = data["@tensor_name"] === "unset";
    this.rawDefault = data["@storage"] === "raw";
    this.attrRawDefault = data["@attr_storage"] === "raw";
    for (const k of stringSet(data["@node_domain_except"], "@node_domain_except")) this.domainExcept.add(k);
    for (const k of stringSet(data["@tensor_name_except"], "@tensor_name_except")) this.tensorNameExcept.add(k);
  }

  /** Defaults apply to every element, whether or not it has its own residual. */
  defaults(t: Target, own: JsonObject | undefined): void {
    if (t.kind === "node" && (t.ast.op?.domain.length ?? 0) === 0) {
      const key = firstOutput(t.ast);
      const except = key !== undefined && this.domainExcept.delete(key);
      if (this.nodeDomainUnset !== except) clearField(t.msg, NodeProtoSchema.field.domain);
    }
    if (t.kind === "tensor") {
      if (t.inAttribute && t.ast.kind === "TensorValue" && !t.ast.name) {
        const except = t.at !== undefined && this.tensorNameExcept.delete(t.at);
        if (this.tensorNameUnset !== except) clearField(t.msg, TensorProtoSchema.field.name);
      }
      const storage = own?.["@storage"] ?? ((t.inAttribute ? this.attrRawDefault : this.rawDefault) ? "raw" : "typed");
      const inline = (t.ast.kind === "ValueDecl" ? t.ast.init : t.ast.data)?.kind !== "ExternalData";
      if (storage === "raw" && inline && !(t.msg.rawData.length && isTypedEmpty(t.msg))) toRaw(t.msg);
    }
  }

  /** Applies an element's own data; returns what no longer fits the visible text (ignored). */
  element(t: Target, data: JsonObject): string[] {
    const schema = SCHEMAS[t.kind];
    const msg = t.msg as MessageShape<DescMessage>;
    for (const [key, value] of Object.entries(data)) {
      if (!key.startsWith("@")) setFieldJson(schema, msg, key, value);
    }
    const nan = data["@nan"];
    const stale: string[] = [];
    if (nan !== undefined) {
      let skipped: number[] = [];
      if (t.kind === "tensor") skipped = applyNan(t.msg, nan, t.msg.rawData.length > 0 && isTypedEmpty(t.msg));
      else if (t.kind === "attr") {
        // The number is only a stand-in; the bits go to the encoder beside it (float-bits.ts).
        if (typeof nan === "string") {
          if (t.msg.f !== t.msg.f) setNanBits(t.msg, AttributeProtoSchema.field.f.number, 0, Number.parseInt(nan, 16));
          else skipped.push(0);
        } else if (nan && typeof nan === "object" && !Array.isArray(nan))
          for (const [k, v] of Object.entries(nan)) {
            const i = Number(k);
            const visible = t.msg.floats[i];
            if (visible === undefined || visible === visible) skipped.push(i);
            else setNanBits(t.msg, AttributeProtoSchema.field.floats.number, i, Number.parseInt(String(v), 16));
          }
      }
      if (skipped.length) stale.push(`'@nan' for element${skipped.length > 1 ? "s" : ""} ${skipped.join(", ")}, which the text no longer writes as nan`);
    }
    const denotation = data["@denotation"];
    if (t.kind === "value" && denotation !== undefined) applyDenotations(t.msg, denotation);
    const external = data["@external"];
    if (t.kind === "tensor" && (external === "raw" || external === "typed")) toBringBack.set(t.msg, external);
    const attrs = data["@attributes"];
    if (t.kind === "node" && Array.isArray(attrs)) {
      const items = attrs.map((a) => {
        const o = a as JsonObject;
        return { index: Number(o["index"]), attribute: fromJson(AttributeProtoSchema, o["attribute"] as JsonValue) };
      });
      this.inserts.push({ node: t.msg, items });
    }
    const clears = data["@clear"];
    if (Array.isArray(clears)) for (const c of clears) clearByName(schema, msg, String(c));
    if (t.kind === "function") stale.push(...clearUnset(t.msg.opsetImport, OperatorSetIdProtoSchema, data["@opset_unset"]));
    return stale;
  }

  finish(): void {
    for (const { node, items } of this.inserts) {
      for (const { index, attribute } of items.sort((a, b) => a.index - b.index)) node.attribute.splice(index, 0, attribute);
    }
  }
}

/** Applies the extension comments to `model` in place; returns problems found on the way. */
export function applyExtensions(text: string, ast: A.Model, comments: readonly A.Comment[], model: ModelProto): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const found: Found[] = [];
  for (const c of comments) {
    const r = parseExtComment(c.text);
    if (!r) continue;
    if (!r.ok) diagnostics.push({ severity: r.severity, code: "extension", message: r.message, span: c.span });
    else found.push({ ext: r.ext, span: c.span });
  }
  if (found.length === 0) return diagnostics;

  const targets = collectTargets(ast, model);
  const starts = new Map<string, Target>();
  for (const t of targets) {
    const key = `${t.kind}@${t.ast.span.start}`;
    if (!starts.has(key)) starts.set(key, t);
  }
  const byKind = new Map<ExtKind, number[]>();
  for (const t of targets) {
    const list = byKind.get(t.kind) ?? [];
    list.push(t.ast.span.start);
    byKind.set(t.kind, list);
  }
  for (const list of byKind.values()) list.sort((a, b) => a - b);

  const own = new Map<Target, JsonObject>();
  const ownSpan = new Map<Target, A.Comment["span"]>();
  const applier = new Applier();
  let modelSpan: A.Comment["span"] | undefined;
  for (const f of found) {
    if (f.ext.kind === "model") {
      modelSpan = f.span;
      try {
        applier.modelDefaults(f.ext.data);
      } catch (e) {
        diagnostics.push({ severity: "error", code: "extension", message: (e as Error).message, span: f.span });
      }
      try {
        for (const note of applyModel(model, f.ext.data)) diagnostics.push(staleNote(note, f.span));
      } catch (e) {
        diagnostics.push({ severity: "error", code: "extension", message: (e as Error).message, span: f.span });
      }
      continue;
    }
    const next = firstAtOrAfter(byKind.get(f.ext.kind) ?? [], f.span.end);
    const target = next === undefined ? undefined : starts.get(`${f.ext.kind}@${next}`);
    if (!target || !BLANK_OR_COMMENTS.test(text.slice(f.span.end, next))) {
      diagnostics.push({ severity: "warning", code: "extension", message: `'#@${f.ext.kind}' is not followed by a ${f.ext.kind}; its data is ignored`, span: f.span });
      continue;
    }
    own.set(target, { ...(own.get(target) ?? {}), ...f.ext.data });
    ownSpan.set(target, f.span);
  }
  checkDigests(own, ownSpan, diagnostics);
  expandLifted(targets, own, ownSpan, diagnostics);
  for (const t of targets) applier.defaults(t, own.get(t));
  const unmatched = [...applier.domainExcept].map((k) => `node '${k}'`).concat([...applier.tensorNameExcept].map((k) => `attribute tensor ${k}`));
  if (unmatched.length && modelSpan)
    diagnostics.push({
      severity: "warning",
      code: "residual-stale",
      message: `'#@model' names ${unmatched.slice(0, 3).join(", ")}${unmatched.length > 3 ? ` and ${unmatched.length - 3} more` : ""} that the text no longer has; the visible text is used`,
      span: modelSpan,
    });
  for (const [t, data] of own) {
    try {
      const span = ownSpan.get(t);
      for (const note of applier.element(t, data)) diagnostics.push(staleNote(note, span));
    } catch (e) {
      const span = ownSpan.get(t);
      diagnostics.push({ severity: "error", code: "extension", message: (e as Error).message, ...(span && { span }) });
    }
  }
  applier.finish();
  return diagnostics;
}

function applyModel(model: ModelProto, data: JsonObject): string[] {
  for (const [key, value] of Object.entries(data)) if (!key.startsWith("@")) setFieldJson(ModelProtoSchema, model, key, value);
  const clears = data["@clear"];
  if (Array.isArray(clears)) for (const c of clears) clearByName(ModelProtoSchema, model, String(c));
  return [...clearUnset(model.opsetImport, OperatorSetIdProtoSchema, data["@opset_unset"]), ...clearUnset(model.metadataProps, StringStringEntryProtoSchema, data["@metadata_unset"])];
}

/**
 * `{"INDEX": ["field", ...]}`: entries of a visible list whose fields were absent (the text
 * writes them as `""` or `0`). Only presence changes; the visible values stay.
 */
function clearUnset<Desc extends DescMessage>(list: MessageShape<Desc>[], schema: Desc, unset: JsonValue | undefined): string[] {
  if (unset === undefined) return [];
  if (typeof unset !== "object" || unset === null || Array.isArray(unset)) throw new OnnxtxtError("an '@..._unset' entry maps list indices to field names");
  const stale: string[] = [];
  for (const [k, fields] of Object.entries(unset)) {
    const e = list[Number(k)];
    if (!Array.isArray(fields)) throw new OnnxtxtError(`'@..._unset': entry ${k} must list field names`);
    if (!e) stale.push(`'${schema.name}' entry ${k}, which the visible list no longer has`);
    else for (const f of fields) clearByName(schema, e, String(f));
  }
  return stale;
}

type AttrTarget = Extract<Target, { kind: "attr" }>;

/**
 * A statement's `"@attr"` entry carries the residuals of its attributes and of the tensors
 * and subgraphs in their values (see raise/lift.ts); each becomes the own data of that part.
 */
function expandLifted(targets: readonly Target[], own: Map<Target, JsonObject>, ownSpan: Map<Target, A.Comment["span"]>, diagnostics: Diagnostic[]): void {
  const byMsg = new Map<object, Target>();
  for (const t of targets) if (!byMsg.has(t.msg)) byMsg.set(t.msg, t);
  for (const [t, data] of [...own]) {
    const lifted = data["@attr"];
    if (lifted === undefined || (t.kind !== "node" && t.kind !== "function")) continue;
    const span = ownSpan.get(t);
    const protos = t.kind === "node" ? t.msg.attribute : t.msg.attributeProto;
    const problem = (message: string): void => {
      diagnostics.push({ severity: "warning", code: "residual-stale", message: `${message}; the visible text is used`, ...(span && { span }) });
    };
    if (typeof lifted !== "object" || lifted === null || Array.isArray(lifted)) {
      diagnostics.push({ severity: "error", code: "extension", message: "'@attr' maps attribute indices to their residuals", ...(span && { span }) });
      continue;
    }
    const give = (msg: object | undefined, part: JsonValue | undefined, what: string): void => {
      if (part === undefined) return;
      const target = msg && byMsg.get(msg);
      if (!target || typeof part !== "object" || part === null || Array.isArray(part)) return problem(`the residual's ${what} is not in the text`);
      own.set(target, { ...(own.get(target) ?? {}), ...part });
      if (span) ownSpan.set(target, span);
    };
    for (const [k, entry] of Object.entries(lifted)) {
      const ap = protos[Number(k)];
      const target = ap && (byMsg.get(ap) as AttrTarget | undefined);
      if (!ap || !target || typeof entry !== "object" || entry === null || Array.isArray(entry)) {
        problem(`the residual's attribute ${k} is not in the text`);
        continue;
      }
      const { "@tensor": tensor, "@tensors": tensors, "@graph": graph, "@graphs": graphs, ...fields } = entry;
      if (Object.keys(fields).length) give(ap, fields, `attribute ${k}`);
      give(ap.t, tensor, `tensor of attribute ${k}`);
      give(ap.g, graph, `graph of attribute ${k}`);
      for (const [list, items, what] of [[ap.tensors, tensors, "tensor"], [ap.graphs, graphs, "graph"]] as const) {
        if (items === undefined) continue;
        if (typeof items !== "object" || items === null || Array.isArray(items)) problem(`the residual's ${what}s of attribute ${k} are not in the text`);
        else for (const [i, part] of Object.entries(items)) give(list[Number(i)], part, `${what} ${i} of attribute ${k}`);
      }
    }
  }
}

/**
 * A residual whose `"@digest"` no longer matches the visible part of its element (edited by
 * hand) keeps only what adds to the element (a doc string, the storage); what restates or
 * depends on the visible text is dropped with a `residual-stale` warning: the text wins.
 */
function checkDigests(own: Map<Target, JsonObject>, ownSpan: Map<Target, A.Comment["span"]>, diagnostics: Diagnostic[]): void {
  for (const [t, data] of own) {
    const digest = data["@digest"];
    if (digest === undefined || t.kind === "attr") continue;
    const now = visibleDigest(t.kind, t.kind === "graph" ? { name: t.msg.name } : t.msg);
    if (now === digest) continue;
    const kept: JsonObject = {};
    const dropped: string[] = [];
    for (const [k, v] of Object.entries(data)) {
      if (isAdditive(k)) kept[k] = v;
      else if (k !== "@digest") dropped.push(k);
    }
    own.set(t, kept);
    const span = ownSpan.get(t);
    diagnostics.push({
      severity: "warning",
      code: "residual-stale",
      message: `the ${t.kind} was edited after this residual was written (digest ${String(digest)}, now ${now}): its ${dropped.join(", ")} ${dropped.length === 1 ? "no longer applies" : "no longer apply"}; the visible text is used`,
      ...(span && { span }),
    });
  }
}

/** `{"type": D, "dims": {"INDEX": D}}` onto the visible tensor type (dims it no longer has are skipped). */
function applyDenotations(v: ValueInfoProto, data: JsonValue): void {
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new OnnxtxtError("'@denotation' is {\"type\": ..., \"dims\": {...}}");
  if (!v.type) return;
  if (typeof data["type"] === "string") v.type.denotation = data["type"];
  const dims = data["dims"];
  const shape = v.type.value.case === "tensorType" ? v.type.value.value.shape : undefined;
  if (dims && typeof dims === "object" && !Array.isArray(dims) && shape)
    for (const [i, d] of Object.entries(dims)) {
      const dim = shape.dim[Number(i)];
      if (dim && typeof d === "string") dim.denotation = d;
    }
}

function staleNote(what: string, span: A.Comment["span"] | undefined): Diagnostic {
  return { severity: "warning", code: "residual-stale", message: `the residual's ${what} is ignored: the visible text wins`, ...(span && { span }) };
}

/** The first of the sorted `starts` at or after `at` (binary search: a model can have many residuals). */
function firstAtOrAfter(starts: readonly number[], at: number): number | undefined {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return starts[lo];
}
