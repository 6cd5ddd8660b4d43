// Test only: a FileSystemProvider for the scheme onnxtxt-test over the e2e server's /files/
// routes (GET reads, PUT writes, ?stat and ?list describe), so that VS Code for the Web opens a
// real folder of the test's without a remote host. Plain JavaScript: the web host loads it as is.
const vscode = require("vscode");

exports.activate = (context) => {
  const base = `${self.location.origin}/files`;
  const url = (uri, query = "") => `${base}${uri.path}${query}`;
  const changes = new vscode.EventEmitter();
  const get = async (uri, query) => {
    const response = await fetch(url(uri, query));
    if (response.status === 404) throw vscode.FileSystemError.FileNotFound(uri);
    if (!response.ok) throw new Error(`${uri.path}: HTTP ${response.status}`);
    return response;
  };
  context.subscriptions.push(
    vscode.workspace.registerFileSystemProvider(
      "onnxtxt-test",
      {
        onDidChangeFile: changes.event,
        watch: () => new vscode.Disposable(() => undefined),
        stat: async (uri) => (await get(uri, "?stat")).json(),
        readDirectory: async (uri) => (await get(uri, "?list")).json(),
        readFile: async (uri) => new Uint8Array(await (await get(uri)).arrayBuffer()),
        writeFile: async (uri, content) => {
          const response = await fetch(url(uri), { method: "PUT", body: content });
          if (!response.ok) throw new Error(`${uri.path}: HTTP ${response.status}`);
          changes.fire([{ type: vscode.FileChangeType.Changed, uri }]);
        },
        createDirectory: () => {
          throw vscode.FileSystemError.NoPermissions("the test workspace has no new folders");
        },
        delete: () => {
          throw vscode.FileSystemError.NoPermissions("the test workspace deletes nothing");
        },
        rename: () => {
          throw vscode.FileSystemError.NoPermissions("the test workspace renames nothing");
        },
      },
      { isCaseSensitive: true },
    ),
  );
};
