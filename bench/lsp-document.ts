// A large synthetic document for the language-server latency bench: one graph of `nodes`
// nodes in a chain of elementwise ops with a few initializers, written as a user would.
export function largeDocument(nodes: number): string {
  const ops = ["Add", "Mul", "Sub"];
  const lines: string[] = [
    `<ir_version: 10, opset_import: ["" : 21]>`,
    `big (float[N, 16] x) => (float[N, 16] y)`,
    `<float[16] w = {${Array.from({ length: 16 }, (_, i) => (i + 1) / 16).join(", ")}}>`,
    `{`,
  ];
  let prev = "x";
  for (let i = 0; i < nodes - 1; i++) {
    const out = `v${i}`;
    if (i % 4 === 3) lines.push(`  ${out} = Relu (${prev})`);
    else lines.push(`  ${out} = ${ops[i % 3]} (${prev}, w)`);
    prev = out;
  }
  lines.push(`  y = Identity (${prev})`, `}`, ``);
  return lines.join("\n");
}
