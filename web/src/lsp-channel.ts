// The language server's worker, shared by Monaco's LSP client (monaco-editor's own
// MonacoLspClient: every standard feature) and the page's requests of its own (onnxtxt/graph,
// and the diagnostics the page reports). Ids of the page's requests start with "page-", so
// their answers go to the page, and everything else to Monaco's client. As VS Code's client
// does, an answer of "content modified" or "cancelled" reaches Monaco as no result: Monaco
// would report it as an unexpected error, and it only means the editor asked too early.
import { lsp } from "monaco-editor";

type Message = { id?: number | string | null; method?: string; params?: unknown; result?: unknown; error?: { code: number; message: string } };
/** LSP's ContentModified and RequestCancelled. */
const STALE = new Set([-32801, -32800]);

type Listener = (e: { data: unknown }) => void;

export interface Diagnostic {
  readonly range: { start: { line: number; character: number }; end: { line: number; character: number } };
  readonly message: string;
  readonly severity?: number;
}

export class LspChannel {
  private readonly forClient: Listener[] = [];
  private readonly pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private next = 0;
  private markInitialized: () => void = () => {};
  /** Resolved once the server has answered `initialize`. */
  readonly initialized = new Promise<void>((resolve) => {
    this.markInitialized = resolve;
  });
  /** Called with each diagnostics publication (after Monaco's client got it). */
  onDiagnostics: (uri: string, diagnostics: readonly Diagnostic[]) => void = () => {};

  constructor(private readonly worker: Worker) {
    worker.addEventListener("message", (e: MessageEvent<Message>) => {
      const m = e.data;
      if ((globalThis as unknown as { lspTrace?: boolean }).lspTrace) console.log("<-", JSON.stringify(m).slice(0, 200));
      const id = typeof m?.id === "string" ? m.id : undefined;
      if (id?.startsWith("page-") && m.method === undefined) {
        const p = this.pending.get(id);
        this.pending.delete(id);
        if (m.error) p?.reject(new Error(m.error.message));
        else p?.resolve(m.result);
        return;
      }
      if (m?.id === 0 && m.result !== undefined) this.markInitialized();
      const stale = m?.error !== undefined && STALE.has(m.error.code);
      const data = stale ? { jsonrpc: "2.0", id: m.id, result: null } : m;
      for (const l of this.forClient) l({ data });
      if (m?.method === "textDocument/publishDiagnostics") {
        const p = m.params as { uri: string; diagnostics: Diagnostic[] };
        this.onDiagnostics(p.uri, p.diagnostics);
      }
    });
  }

  /** Starts Monaco's LSP client on this channel. */
  startClient(): void {
    const port = {
      postMessage: (m: Message) => this.fromClient(m),
      addEventListener: (_type: string, l: Listener) => this.forClient.push(l),
      removeEventListener: (_type: string, l: Listener) => {
        const i = this.forClient.indexOf(l);
        if (i >= 0) this.forClient.splice(i, 1);
      },
    };
    new lsp.MonacoLspClient(lsp.createTransportToWorker(port as unknown as Worker));
  }

  /** Documents the client has opened, and requests about others held until their didOpen. */
  private readonly open = new Set<string>();
  private readonly held: Message[] = [];

  /**
   * Monaco's client may ask about a document (code actions at the cursor) before it sends its
   * didOpen, which the server answers with an error: such requests wait for the didOpen.
   */
  private fromClient(m: Message): void {
    if ((globalThis as unknown as { lspTrace?: boolean }).lspTrace) console.log("->", JSON.stringify(m).slice(0, 200));
    const uri = (m.params as { textDocument?: { uri?: string } } | undefined)?.textDocument?.uri;
    if (m.method === "textDocument/didOpen" && uri !== undefined) {
      this.open.add(uri);
      this.worker.postMessage(m);
      for (const h of this.held.splice(0)) this.fromClient(h);
      return;
    }
    if (m.method === "textDocument/didClose" && uri !== undefined) this.open.delete(uri);
    else if (uri !== undefined && m.id !== undefined && !this.open.has(uri)) {
      this.held.push(m);
      return;
    }
    this.worker.postMessage(m);
  }

  request<R>(method: string, params: unknown): Promise<R> {
    const id = `page-${this.next++}`;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ jsonrpc: "2.0", id, method, params });
    });
  }
}
