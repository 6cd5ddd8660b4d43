// The garbage collections in the server's timeline (trace.ts): a pause of the collector holds
// up every message as a long handler does, and the timeline would otherwise show it only as
// "blocked". Node only (the browser's worker has no such entries).
import { constants, PerformanceObserver } from "node:perf_hooks";
import type { Trace } from "./trace.js";

/** Traces each garbage collection of 5 ms or more (`gc minor 12 ms`): the pauses that hold everything up. */
export function traceCollections(trace: Trace): void {
  const kinds: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak callbacks",
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      if (e.duration >= 5)
        trace(`gc ${kind === undefined ? "" : (kinds[kind] ?? kind)} ${e.duration.toFixed(1)} ms (began ${(performance.timeOrigin + e.startTime).toFixed(1)})`);
    }
  }).observe({ entryTypes: ["gc"] });
}
