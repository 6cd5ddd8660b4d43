// The graph view's HTML: a search box, a status line and the stage the page script draws on.
// Content-Security-Policy as VS Code's webview guide asks: nothing but our own script (by
// nonce), our styles, the ELK worker fetched from the extension and run from a blob.

interface GraphPageResources {
  readonly cspSource: string;
  readonly nonce: string;
  readonly script: string;
  readonly elkWorker: string;
}

export function graphPageHtml(r: GraphPageResources): string {
  const csp = [
    "default-src 'none'",
    `style-src ${r.cspSource} 'unsafe-inline'`,
    `script-src 'nonce-${r.nonce}'`,
    `connect-src ${r.cspSource}`,
    "worker-src blob:",
    `img-src ${r.cspSource} data:`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style>
  html, body { height: 100%; margin: 0; padding: 0; overflow: hidden; background: var(--vscode-editor-background); color: var(--vscode-editor-foreground); }
  #bar { position: absolute; top: 0; left: 0; right: 0; display: flex; gap: 8px; align-items: center; padding: 4px 8px; z-index: 1;
         background: var(--vscode-editorWidget-background); border-bottom: 1px solid var(--vscode-editorWidget-border, transparent); font: var(--vscode-font-size) var(--vscode-font-family); }
  #search { width: 14em; background: var(--vscode-input-background); color: var(--vscode-input-foreground); border: 1px solid var(--vscode-input-border, transparent); padding: 2px 4px; }
  #status { color: var(--vscode-descriptionForeground); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  #stage { position: absolute; top: 30px; left: 0; right: 0; bottom: 0; overflow: hidden; cursor: grab; }
  #canvas { transform-origin: 0 0; }
  #canvas g[data-start] { cursor: pointer; }
</style>
</head>
<body data-elk-worker="${r.elkWorker}">
<div id="bar"><input id="search" type="search" placeholder="Find a node (Enter)" aria-label="Find a node"><span id="status">laying out…</span></div>
<div id="stage"><div id="canvas"></div></div>
<script nonce="${r.nonce}" src="${r.script}"></script>
</body>
</html>`;
}
