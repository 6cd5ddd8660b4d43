// Text-processing operators: StringNormalizer and TfIdfVectorizer.
import type { OpRule } from "../context.js";
import { maxOf } from "../../arrays.js";

const stringNormalizer: OpRule = (c) => {
  const s = c.shapeIn(0);
  if (!s) return;
  // Stop words may remove elements: the last dimension becomes unknown.
  c.set(0, s.length === 2 ? [s[0], undefined] : [undefined]);
};

const tfIdf: OpRule = (c) => {
  const s = c.shapeIn(0);
  const indexes = c.ints("ngram_indexes") ?? [];
  const width = indexes.length > 0 ? maxOf(indexes) + 1 : undefined;
  if (!s) return;
  c.set(0, s.length === 2 ? [s[0], width] : [width]);
};

export const TEXT_RULES: Record<string, OpRule> = { StringNormalizer: stringNormalizer, TfIdfVectorizer: tfIdf };
