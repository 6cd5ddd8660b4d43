// The built playground (dist/playground) served from 127.0.0.1 for the browser tests and the
// benchmark, with every request the page makes elsewhere blocked and counted.
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type { BrowserContext } from "playwright-core";

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".txt": "text/plain" };

export interface StaticServer {
  readonly origin: string;
  /** Bytes sent per path. */
  readonly sent: Map<string, number>;
  close(): void;
}

export function serveStatic(dir: string): Promise<StaticServer> {
  const sent = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const rel = url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname.slice(1));
    const file = path.join(dir, rel);
    if (!file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return void res.writeHead(404).end();
    const body = fs.readFileSync(file);
    sent.set(url.pathname, (sent.get(url.pathname) ?? 0) + body.length);
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" }).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({ origin, sent, close: () => server.close() });
    }),
  );
}

/** Lets requests to `origin` through and blocks every other one, recording it. */
export async function blockOthers(context: BrowserContext, origin: string): Promise<string[]> {
  const blocked: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  return blocked;
}
