// ai.onnx.ml LabelEncoder 1 -> 2: classes_strings (string <-> its index) became explicit
// key and value lists.
import { attributeOf, getAttr, removeAttr, setAttr } from "../attrs.js";
import { elemOf, keep, refuse, type Adapter } from "../context.js";

export const labelEncoderUp: Adapter = (node, ctx) => {
  const classes = getAttr(node, "classes_strings")?.strings.map((s) => new TextDecoder().decode(s)) ?? [];
  const elem = elemOf(ctx, node.input[0]!);
  if (elem === undefined) return refuse(`the element type of '${node.input[0]}' is unknown (it says which way the classes map)`);
  const indices = classes.map((_, i) => i);
  removeAttr(node, "classes_strings");
  if (elem === 8) {
    removeAttr(node, "default_string");
    setAttr(node, attributeOf("keys_strings", "STRINGS", classes));
    setAttr(node, attributeOf("values_int64s", "INTS", indices));
  } else {
    removeAttr(node, "default_int64");
    setAttr(node, attributeOf("keys_int64s", "INTS", indices));
    setAttr(node, attributeOf("values_strings", "STRINGS", classes));
  }
  return keep(node);
};

export const labelEncoderDown: Adapter = (node) => {
  const strings = (name: string) => getAttr(node, name)?.strings.map((s) => new TextDecoder().decode(s));
  const ints = (name: string) => getAttr(node, name)?.ints.map(Number);
  const keysS = strings("keys_strings");
  const valuesI = ints("values_int64s");
  const keysI = ints("keys_int64s");
  const valuesS = strings("values_strings");
  const indices = (xs: readonly number[] | undefined) => xs?.every((x, i) => x === i) === true;
  let classes: string[] | undefined;
  if (keysS && indices(valuesI) && valuesI!.length === keysS.length) classes = keysS;
  else if (valuesS && indices(keysI) && keysI!.length === valuesS.length) classes = valuesS;
  if (!classes || getAttr(node, "keys_floats") || getAttr(node, "values_floats"))
    return refuse("only maps between strings and their index have a LabelEncoder-1 form");
  for (const a of ["keys_strings", "values_int64s", "keys_int64s", "values_strings", "default_float"]) removeAttr(node, a);
  if (keysS) removeAttr(node, "default_string");
  else removeAttr(node, "default_int64");
  setAttr(node, attributeOf("classes_strings", "STRINGS", classes));

  return keep(node);
};
