// Upsample and Resize: Upsample's scales became an input (9), Upsample was replaced by Resize
// (10, same meaning), Resize 11 added roi, sizes and the coordinate modes, 13 made roi and
// scales optional.
import { attributeOf, floatAttr, getAttr, removeAttr, setAttr, stringAttr } from "../attrs.js";
import { keep, numberConstant, refuse, type Adapter } from "../context.js";
import { floatsAttrToInput, floatsInputToAttr, setInput } from "./inputs.js";

/** Upsample 1 -> 7: height_scale/width_scale of a 4-D input become scales = [1, 1, h, w]; bilinear is called linear. */
export const upsample7Up: Adapter = (node) => {
  const h = floatAttr(node, "height_scale");
  const w = floatAttr(node, "width_scale");
  if (h === undefined || w === undefined) return refuse("height_scale and width_scale are required");
  removeAttr(node, "height_scale");
  removeAttr(node, "width_scale");
  setAttr(node, attributeOf("scales", "FLOATS", [1, 1, h, w]));
  if (stringAttr(node, "mode") === "bilinear") setAttr(node, attributeOf("mode", "STRING", "linear"));
  return keep(node);
};

export const upsample7Down: Adapter = (node) => {
  const s = getAttr(node, "scales")?.floats ?? [];
  if (s.length !== 4 || s[0] !== 1 || s[1] !== 1) return refuse("opset 6 scales only the last two axes of a 4-D input");
  removeAttr(node, "scales");
  setAttr(node, attributeOf("height_scale", "FLOAT", s[2]!));
  setAttr(node, attributeOf("width_scale", "FLOAT", s[3]!));
  if ((stringAttr(node, "mode") ?? "nearest") === "linear") setAttr(node, attributeOf("mode", "STRING", "bilinear"));
  return keep(node);
};

export const upsample9Up: Adapter = floatsAttrToInput("scales", 1);
export const upsample9Down: Adapter = floatsInputToAttr("scales", 0 + 1);

/** Upsample 9 -> Resize 10 and back: the same operator under another name. */
export const upsampleToResize: Adapter = (node) => {
  node.opType = "Resize";
  return keep(node);
};

export const resizeToUpsample: Adapter = (node) => {
  node.opType = "Upsample";
  return keep(node);
};

/** Resize 10 -> 11: an empty roi before scales, and 10's coordinate rule written out. */
export const resize11Up: Adapter = (node, ctx) => {
  const roi = numberConstant(ctx, `${node.output[0] || "resize"}_roi`, 1, [0], []);
  node.input = [node.input[0]!, roi.name, node.input[1]!];
  setAttr(node, attributeOf("coordinate_transformation_mode", "STRING", "asymmetric"));
  if ((stringAttr(node, "mode") ?? "nearest") === "nearest") setAttr(node, attributeOf("nearest_mode", "STRING", "floor"));
  return keep(roi.node, node);
};

export const resize11Down: Adapter = (node) => {
  const mode = stringAttr(node, "mode") ?? "nearest";
  if (mode === "cubic") return refuse("mode cubic is new in opset 11");
  if ((stringAttr(node, "coordinate_transformation_mode") ?? "half_pixel") !== "asymmetric") return refuse("opset 10 has only the asymmetric coordinate mode");
  if (mode === "nearest" && (stringAttr(node, "nearest_mode") ?? "round_prefer_floor") !== "floor")
    return refuse("opset 10 rounds nearest down (nearest_mode floor) only");
  if (node.input[3]) return refuse("sizes is new in opset 11 (opset 10 takes scales)");
  if (!node.input[2]) return refuse("no scales");
  for (const a of ["coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a", "exclude_outside", "extrapolation_value"]) removeAttr(node, a);
  node.input = [node.input[0]!, node.input[2]!];
  return keep(node);
};

/** Resize 13 -> 11: roi and scales were required inputs (empty tensors when unused). */
export const resize13Down: Adapter = (node, ctx) => {
  const added = [];
  for (const i of [1, 2]) {
    if (node.input[i]) continue;
    const c = numberConstant(ctx, `${node.output[0] || "resize"}_${i === 1 ? "roi" : "scales"}`, 1, [0], []);
    setInput(node, i, c.name);
    added.push(c.node);
  }
  return keep(...added, node);
};
