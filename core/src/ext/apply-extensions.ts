// Reads the `#@KIND {json}` residual comments of a parsed text and applies them to the model
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
} from "../../../proto/src/index.js";
import { partitionPoint } from "../arrays.js";
import { OnnxtxtError } from "../io/errors.js";
import { parseExtComment, type ExtComment, type ExtKind } from "./ext-comment.js";
import { toBringBack } from "./externalize.js";
import { applyDenotations, applyNan, clearUnset } from "./apply-values.js";
import { setNanBits } from "../io/nan-bits.js";
import { expandLifted } from "./lifted.js";
import { checkDigests, staleNote } from "./stale.js";
import { clearByName, setFieldJson } from "./fields.js";
import { rawField, typedToRaw } from "./raw-data.js";
import { collectNodeTargets, collectTargets, firstOutput, type Target } from "./targets.js";

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

/** Whether none of the typed value fields (all but raw_data) holds a value. */
export function isTypedEmpty(t: TensorProto): boolean {
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
        // The number is only a stand-in; the bits go to the encoder beside it (io/nan-bits.ts).
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

/**
 * Applies the `#@model` presence and storage defaults to one node statement lowered alone, as
 * applyExtensions applies them to every element: for a text whose residual comments are defaults
 * only (residualsBeyondDefaults false), so no element has its own data and no node is an exception.
 * False when the defaults do not read.
 */
export function applyNodeDefaults(comments: readonly A.Comment[], node: A.OpNode, proto: NodeProto): boolean {
  const applier = new Applier();
  try {
    for (const c of comments) {
      const r = parseExtComment(c.text);
      if (r?.ok && r.ext.kind === "model") applier.modelDefaults(r.ext.data);
    }
  } catch {
    return false; // reported by applyExtensions
  }
  for (const t of collectNodeTargets(node, proto)) applier.defaults(t, undefined);
  return true;
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
      diagnostics.push({
        severity: "warning",
        code: "extension",
        message: `'#@${f.ext.kind}' is not followed by a ${f.ext.kind}; its data is ignored`,
        span: f.span,
      });
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
  return [
    ...clearUnset(model.opsetImport, OperatorSetIdProtoSchema, data["@opset_unset"]),
    ...clearUnset(model.metadataProps, StringStringEntryProtoSchema, data["@metadata_unset"]),
  ];
}

/** The first of the sorted `starts` at or after `at` (binary search: a model can have many residuals). */
function firstAtOrAfter(starts: readonly number[], at: number): number | undefined {
  return starts[partitionPoint(starts.length, (i) => starts[i]! >= at)];
}
