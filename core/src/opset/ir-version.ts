// The IR version each opset of ai.onnx first shipped with (onnx's release table): a model moved
// up to opset N needs at least that IR version.
const FIRST_OPSET_OF_IR: readonly (readonly [opset: number, ir: number])[] = [
  [1, 3],
  [9, 4],
  [10, 5],
  [11, 6],
  [12, 7],
  [15, 8],
  [19, 9],
  [21, 10],
  [23, 11],
  [24, 12],
  [25, 13],
];

export function minIrVersion(opset: number): number {
  let ir = 3;
  for (const [o, v] of FIRST_OPSET_OF_IR) if (opset >= o) ir = v;
  return ir;
}
