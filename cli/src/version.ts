// The package's version, for --version and SARIF's tool entry.
import { createRequire } from "node:module";

export function toolVersion(): string {
  const pkg = createRequire(import.meta.url)("../../../package.json") as { version: string };
  return pkg.version;
}
