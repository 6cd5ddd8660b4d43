// One-line progress on stderr, shown only on a terminal (so pipes and logs stay clean) and only
// for work that has taken a second.
import type { Output } from "./command.js";
import { escapeControls } from "./terminal-text.js";

interface Progress {
  tick(label: string): void;
  done(): void;
}

export function progress(io: Output, total: number, what: string): Progress {
  if (!io.interactive || total < 2) return { tick() {}, done() {} };
  let n = 0;
  let last = 0;
  let shown = false;
  const started = Date.now();
  return {
    tick(label) {
      n++;
      const now = Date.now();
      // work under a second shows nothing
      if (now - started < 1000 || (now - last < 100 && n < total)) return;
      last = now;
      shown = true;
      const name = label.length > 50 ? "…" + label.slice(-49) : label;
      io.status(`\r\x1b[K${what} ${n}/${total} ${escapeControls(name)}`);
    },
    done() {
      if (shown) io.status("\r\x1b[K");
    },
  };
}

/**
 * A byte count on stderr for one long piece of work (`printing 212 MiB`): shown on a terminal
 * only, and only once the work has taken a second, so quick commands print nothing.
 */
export function byteProgress(io: Output, what: string): { add(n: number): void; done(): void } {
  if (!io.interactive) return { add() {}, done() {} };
  const started = Date.now();
  let bytes = 0;
  let last = 0;
  let shown = false;
  return {
    add(n) {
      bytes += n;
      const now = Date.now();
      if (now - started < 1000 || now - last < 100) return;
      last = now;
      shown = true;
      io.status(`\r\x1b[K${what} ${(bytes / 2 ** 20).toFixed(0)} MiB`);
    },
    done() {
      if (shown) io.status("\r\x1b[K");
    },
  };
}
