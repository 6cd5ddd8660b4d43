// Byte sizes on the command line: `1024`, `64k`, `1M`, `2G` (powers of 1024).
import { UsageError } from "./args.js";

const UNITS: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

export function parseSize(text: string): number {
  const m = /^(\d+)([kmg]?)b?$/i.exec(text.trim());
  if (!m) throw new UsageError(`'${text}' is not a size (e.g. 1024, 64k, 1M)`);
  return Number(m[1]) * UNITS[m[2]!.toLowerCase()]!;
}
