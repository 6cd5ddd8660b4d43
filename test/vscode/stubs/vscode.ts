// A stand-in for the `vscode` module with just the API the extension's activation layer uses.
// It records what the extension registers and shows, so a test can drive and inspect it.
import * as path from "node:path";

type Listener<T> = (e: T) => unknown;

export class Disposable {
  constructor(private readonly onDispose: () => void = () => undefined) {}
  dispose(): void {
    this.onDispose();
  }
}

export class EventEmitter<T> {
  private readonly listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.push(listener);
    return new Disposable();
  };
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
  dispose(): void {}
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  static from(p: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(p.scheme, p.authority ?? "", p.path ?? "", p.query ?? "", p.fragment ?? "");
  }
  static file(p: string): Uri {
    return new Uri("file", "", p, "", "");
  }
  static parse(s: string): Uri {
    const m = /^([a-z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/i.exec(s);
    if (!m) throw new Error(`bad uri ${s}`);
    return new Uri(m[1]!, m[2] ?? "", decodeURIComponent(m[3] ?? ""), m[4] ?? "", m[5] ?? "");
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, base.authority, path.posix.join(base.path, ...parts), base.query, base.fragment);
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ""}`;
  }
}

export class FileSystemError extends Error {
  static Unavailable(m: string): FileSystemError {
    return new FileSystemError(m);
  }
  static NoPermissions(m: string): FileSystemError {
    return new FileSystemError(m);
  }
  static FileNotFound(m: string): FileSystemError {
    return new FileSystemError(m);
  }
}

export class TabInputText {
  constructor(readonly uri: Uri) {}
}

export class Range {
  constructor(
    readonly startLine: number,
    readonly startCharacter: number,
    readonly endLine: number,
    readonly endCharacter: number,
  ) {}
}

export class Diagnostic {
  source = "";
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: number,
  ) {}
}

export class RelativePattern {
  constructor(
    readonly base: Uri,
    readonly pattern: string,
  ) {}
}

export const FileType = { File: 1, Directory: 2 } as const;
export const FileChangeType = { Changed: 1, Created: 2, Deleted: 3 } as const;
export const ConfigurationTarget = { Global: 1 } as const;
export const ViewColumn = { One: 1, Beside: -2 } as const;
export const DiagnosticSeverity = { Error: 0 } as const;

export interface StubDocument {
  uri: Uri;
  fileName: string;
  languageId: string;
  getText(): string;
}

/** Everything the extension did, and the answers the stand-in gives. */
export const recorded = {
  files: new Map<string, Uint8Array>(),
  settings: new Map<string, unknown>(),
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  fileSystems: new Map<string, { readFile(u: Uri): Promise<Uint8Array>; writeFile(u: Uri, c: Uint8Array): Promise<void> }>(),
  messages: [] as string[],
  /** The button to press on the next message with buttons. */
  answer: undefined as string | undefined,
  opened: [] as Uri[],
  webviews: [] as { title: string; html: string; post?: (message: unknown) => void }[],
  shownDocuments: [] as { uri: Uri; selection?: Range }[],
  diagnostics: new Map<string, Diagnostic[]>(),
  openListeners: [] as Listener<StubDocument>[],
  tabListeners: [] as Listener<{ opened: { input: unknown }[]; closed: { input: unknown }[] }>[],
  activeDocument: undefined as StubDocument | undefined,
  /** Commands the extension ran (`vscode.diff`, ...) with their arguments. */
  executed: [] as { command: string; args: unknown[] }[],
  /** What the next open dialog answers (undefined: cancelled). */
  openDialogAnswer: undefined as Uri[] | undefined,
  reset(): void {
    this.files.clear();
    this.settings.clear();
    this.commands.clear();
    this.fileSystems.clear();
    this.messages.length = 0;
    this.answer = undefined;
    this.opened.length = 0;
    this.webviews.length = 0;
    this.shownDocuments.length = 0;
    this.diagnostics.clear();
    this.tabListeners.length = 0;
    this.openListeners.length = 0;
    this.activeDocument = undefined;
    this.executed.length = 0;
    this.openDialogAnswer = undefined;
  },
};

const ask = async (message: string, ...rest: unknown[]): Promise<string | undefined> => {
  recorded.messages.push(message);
  const buttons = rest.filter((r): r is string => typeof r === "string");
  return buttons.find((b) => b === recorded.answer);
};

export const workspace = {
  fs: {
    async stat(u: Uri) {
      const f = recorded.files.get(u.toString());
      if (!f) throw FileSystemError.FileNotFound(u.path);
      return { type: FileType.File, ctime: 0, mtime: 0, size: f.length };
    },
    async readFile(u: Uri) {
      const f = recorded.files.get(u.toString());
      if (!f) throw FileSystemError.FileNotFound(u.path);
      return f;
    },
    async writeFile(u: Uri, bytes: Uint8Array) {
      recorded.files.set(u.toString(), bytes);
    },
  },
  getConfiguration: (section: string) => ({
    get: <T>(key: string, fallback: T): T => (recorded.settings.has(`${section}.${key}`) ? (recorded.settings.get(`${section}.${key}`) as T) : fallback),
    update: async (key: string, value: unknown) => void recorded.settings.set(`${section}.${key}`, value),
  }),
  registerFileSystemProvider(scheme: string, provider: { readFile(u: Uri): Promise<Uint8Array>; writeFile(u: Uri, c: Uint8Array): Promise<void> }) {
    recorded.fileSystems.set(scheme, provider);
    return new Disposable();
  },
  async openTextDocument(u: Uri): Promise<StubDocument> {
    recorded.opened.push(u);
    const provider = recorded.fileSystems.get(u.scheme);
    const bytes = provider ? await provider.readFile(u) : await workspace.fs.readFile(u);
    const text = new TextDecoder().decode(bytes);
    return { uri: u, fileName: u.path, languageId: u.path.endsWith(".onnxtxt") ? "onnxtxt" : "plaintext", getText: () => text };
  },
  onDidOpenTextDocument(listener: Listener<StubDocument>) {
    recorded.openListeners.push(listener);
    return new Disposable();
  },
  onDidChangeTextDocument: () => new Disposable(),
  get textDocuments(): StubDocument[] {
    return recorded.activeDocument ? [recorded.activeDocument] : [];
  },
  createFileSystemWatcher: () => ({ onDidChange: () => new Disposable(), onDidDelete: () => new Disposable(), dispose() {} }),
};

export const window = {
  onDidChangeTextEditorSelection: () => new Disposable(),
  get activeTextEditor() {
    return recorded.activeDocument ? { document: recorded.activeDocument } : undefined;
  },
  async showOpenDialog(_options: unknown): Promise<Uri[] | undefined> {
    return recorded.openDialogAnswer;
  },
  showInformationMessage: ask,
  showErrorMessage: ask,
  showWarningMessage: (message: string, _options: unknown, ...buttons: string[]) => ask(message, ...buttons),
  async showTextDocument(doc: Uri | StubDocument, options?: { selection?: Range }) {
    recorded.shownDocuments.push({ uri: doc instanceof Uri ? doc : doc.uri, ...(options?.selection && { selection: options.selection }) });
    return undefined;
  },
  tabGroups: {
    all: [] as { tabs: { input: unknown }[] }[],
    activeTabGroup: { activeTab: undefined },
    onDidChangeTabs(listener: Listener<{ opened: { input: unknown }[]; closed: { input: unknown }[] }>) {
      recorded.tabListeners.push(listener);
      return new Disposable();
    },
  },
  createWebviewPanel(_type: string, title: string) {
    const view: { title: string; html: string; post?: (message: unknown) => void } = { title, html: "" };
    recorded.webviews.push(view);
    return {
      get title() {
        return view.title;
      },
      set title(t: string) {
        view.title = t;
      },
      webview: {
        cspSource: "stub:",
        get html() {
          return view.html;
        },
        set html(h: string) {
          view.html = h;
        },
        onDidReceiveMessage: (listener: (message: unknown) => void) => {
          view.post = listener;
          return new Disposable();
        },
      },
      onDidDispose: () => new Disposable(),
      reveal() {},
      dispose() {},
    };
  },
};

export const commands = {
  registerCommand(id: string, fn: (...args: unknown[]) => unknown) {
    if (recorded.commands.has(id)) throw new Error(`command '${id}' already exists`);
    recorded.commands.set(id, fn);
    return new Disposable(() => recorded.commands.delete(id));
  },
  async getCommands() {
    return [...recorded.commands.keys()];
  },
  async executeCommand(command: string, ...args: unknown[]) {
    recorded.executed.push({ command, args });
    return undefined;
  },
};

export const languages = {
  createDiagnosticCollection: () => ({
    set: (u: Uri, d: Diagnostic[]) => void recorded.diagnostics.set(u.toString(), d),
    delete: (u: Uri) => void recorded.diagnostics.delete(u.toString()),
    dispose() {},
  }),
};
