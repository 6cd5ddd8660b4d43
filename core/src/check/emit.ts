// The checker's way of reporting: the code decides the severity (see codes.ts).
import type { Diagnostic } from "../diagnostics.js";
import type { SourceMap } from "../source-map.js";
import { Reporter, type Part, type Where } from "../infer/location.js";
import { CHECK_CODES, type CheckCode } from "./codes.js";

export class Emitter {
  readonly reporter: Reporter;
  constructor(
    sourceMap: SourceMap | undefined,
    readonly diagnostics: Diagnostic[],
  ) {
    this.reporter = new Reporter(sourceMap, diagnostics);
  }

  emit(code: CheckCode, message: string, element: object | undefined, where: Where, part: Part = "whole"): void {
    this.reporter.report(CHECK_CODES[code].severity, code, message, element, where, part);
  }
}
