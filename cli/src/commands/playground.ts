// `onnxtxt playground`: serves the web playground (dist/playground, made by
// `npm run build:playground`) on 127.0.0.1 and opens it in the browser. Only that folder is
// served, read-only, to this machine only; the page itself makes no request elsewhere.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { FileError } from "../../../core/src/io/files.js";
import { flag, hasFlag, parseArgs, UsageError } from "../args.js";
import type { Command } from "../command.js";

const USAGE = `usage: onnxtxt playground [--port N] [--no-open]

Serves the web playground on http://127.0.0.1:PORT/ (a free port unless --port) and opens
it in the browser (xdg-open), or prints its address. Runs until interrupted (Ctrl-C).
The playground is static: its folder (dist/playground, made by npm run build:playground)
also works opened as a file or from any static host.`;

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/** dist/playground, found above this module (dist/cli/src or dist/cli/src/commands). */
export function playgroundDir(from = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (path.basename(dir) === "dist" && fs.existsSync(path.join(dir, "playground/index.html"))) return path.join(dir, "playground");
    if (path.dirname(dir) === dir) return undefined;
  }
}

function serve(dir: string, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405).end();
    const rel = url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname.slice(1));
    const file = path.resolve(dir, rel);
    const stat = file.startsWith(dir + path.sep) ? fs.statSync(file, { throwIfNoEntry: false }) : undefined;
    if (!stat?.isFile()) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    res.writeHead(200, {
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "x-content-type-options": "nosniff",
      "cache-control": "no-cache",
    });
    if (req.method === "HEAD") return void res.end();
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

/** xdg-open when there is one; false otherwise (the address is printed either way). */
function openBrowser(url: string): boolean {
  const opener = (process.env["PATH"] ?? "").split(path.delimiter).find((d) => d && fs.existsSync(path.join(d, "xdg-open")));
  if (!opener) return false;
  const child = spawn(path.join(opener, "xdg-open"), [url], { detached: true, stdio: "ignore" });
  child.on("error", () => {});
  child.unref();
  return true;
}

export const playgroundCommand: Command = {
  name: "playground",
  summary: "serve the web playground on 127.0.0.1 and open it",
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, { port: { value: true }, "no-open": {} });
    if (args.positional.length > 0) throw new UsageError("playground takes no files (open or drop them in the page)");
    const portText = flag(args, "port") ?? "0";
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port > 65535) throw new UsageError(`--port ${portText}: expected a port number (0-65535)`);
    const dir = playgroundDir();
    if (!dir) throw new FileError("dist/playground", "is not built: run npm run build:playground");
    let server: http.Server;
    try {
      server = await serve(dir, port);
    } catch (e) {
      throw new FileError(`127.0.0.1:${port}`, `cannot listen: ${e instanceof Error ? e.message : String(e)}`);
    }
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const opened = !hasFlag(args, "no-open") && openBrowser(url);
    io.out(`${url}\n`);
    io.err(opened ? `playground: opened ${url} in the browser; Ctrl-C stops the server\n` : `playground: open ${url} in a browser; Ctrl-C stops the server\n`);
    return new Promise<number>((resolve) => {
      const stop = (): void => {
        server.close(() => resolve(0));
        server.closeAllConnections(); // browsers keep connections open
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
  },
};
