// `format --diff`: the change the formatter would make, as a unified diff of the file's lines.
import { unifiedText } from "../../core/src/diff/line-diff.js";

function lines(text: string): string[] {
  const ls = text.split("\n");
  if (ls[ls.length - 1] === "") ls.pop();
  return ls;
}

/** The unified diff from `before` to `after`, both labelled with the file's name; "" when equal. */
export function formatDiff(file: string, before: string, after: string): string {
  return unifiedText(lines(before), lines(after), file, file);
}
