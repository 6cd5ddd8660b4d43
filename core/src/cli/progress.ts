// A one-line progress counter on stderr, shown only on a terminal so pipes and logs stay clean.
import type { Output } from "./command.js";
import { escapeControls } from "./terminal-text.js";

export interface Progress {
  tick(label: string): void;
  done(): void;
}

export function progress(io: Output, total: number, what: string): Progress {
  if (!io.interactive || total < 2) return { tick() {}, done() {} };
  let n = 0;
  let last = 0;
  return {
    tick(label) {
      n++;
      const now = Date.now();
      if (now - last < 100 && n < total) return;
      last = now;
      const name = label.length > 50 ? "…" + label.slice(-49) : label;
      io.status(`\r\x1b[K${what} ${n}/${total} ${escapeControls(name)}`);
    },
    done() {
      io.status("\r\x1b[K");
    },
  };
}
