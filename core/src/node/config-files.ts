// Finding each file's configuration (Node: the CLI and the language server): the nearest `onnxtxt.toml`, or `pyproject.toml` with a
// `[tool.onnxtxt]` table, walking up from the file's folder (onnxtxt.toml wins in one folder);
// `--config FILE` uses one file for all, `--isolated` none. A file with a mistake stops the run
// with FILE:LINE:COL for each mistake.
import * as fs from "node:fs";
import * as path from "node:path";
import { readConfig, type OnnxtxtConfig } from "../config/index.js";
import { isExcluded } from "../config/rules.js";
import { FileError, readText } from "../io/files.js";

export interface FoundConfig {
  readonly file: string;
  readonly config: OnnxtxtConfig;
  /** The path of the checked file relative to the configuration's folder, '/'-separated. */
  readonly relPath: string;
}

/** A configuration file with mistakes; `lines` are `FILE:LINE:COL: error: MESSAGE`. */
export class ConfigFileError extends Error {
  constructor(readonly lines: readonly string[]) {
    super(lines.join("\n"));
  }
}

const TOOL_TABLE = /^\s*\[\s*tool\s*\.\s*onnxtxt\s*[\].]/m;

export class ConfigFinder {
  private readonly byDir = new Map<string, string | undefined>();
  private readonly loaded = new Map<string, OnnxtxtConfig>();

  constructor(private readonly options: { readonly configFile?: string; readonly isolated?: boolean } = {}) {}

  /** The configuration that applies to `file` (`-` is stdin: found from the working folder). */
  forFile(file: string): FoundConfig | undefined {
    if (this.options.isolated) return undefined;
    const abs = path.resolve(file === "-" ? "stdin" : file);
    const configFile = this.options.configFile !== undefined ? path.resolve(this.options.configFile) : this.nearest(path.dirname(abs));
    if (configFile === undefined) return undefined;
    const relPath = path.relative(path.dirname(configFile), abs).split(path.sep).join("/");
    return { file: configFile, config: this.load(configFile), relPath };
  }

  /** Is `file` excluded by its configuration's `exclude`? Returns that configuration's file if so. */
  excludedBy(file: string): string | undefined {
    if (file === "-") return undefined;
    const found = this.forFile(file);
    return found && isExcluded(found.config, found.relPath) ? found.file : undefined;
  }

  private nearest(dir: string): string | undefined {
    if (this.byDir.has(dir)) return this.byDir.get(dir);
    let found: string | undefined;
    const own = path.join(dir, "onnxtxt.toml");
    const pyproject = path.join(dir, "pyproject.toml");
    if (fs.existsSync(own)) found = own;
    else if (fs.existsSync(pyproject) && TOOL_TABLE.test(readText(pyproject))) found = pyproject;
    else {
      const parent = path.dirname(dir);
      found = parent === dir ? undefined : this.nearest(parent);
    }
    this.byDir.set(dir, found);
    return found;
  }

  private load(file: string): OnnxtxtConfig {
    const cached = this.loaded.get(file);
    if (cached) return cached;
    if (!fs.existsSync(file)) throw new FileError(file, "no such configuration file");
    const r = readConfig(readText(file), path.basename(file) === "pyproject.toml");
    if (!r.ok) throw new ConfigFileError(r.problems.map((p) => `${file}:${p.line}:${p.col}: error: ${p.message}`));
    this.loaded.set(file, r.config);
    return r.config;
  }

  /** Forgets what was read (a configuration file changed). */
  clear(): void {
    this.byDir.clear();
    this.loaded.clear();
  }
}
