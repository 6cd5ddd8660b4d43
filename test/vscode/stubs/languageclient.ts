// A stand-in for `vscode-languageclient/node`: records how the extension configures the
// client and answers requests from a table the test fills.
export const TransportKind = { stdio: 0, ipc: 1 } as const;
export const ExecuteCommandRequest = { type: { method: "workspace/executeCommand" } } as const;

export interface ClientRecord {
  id: string;
  serverOptions: { run: { module: string; transport: number }; debug: { module: string } };
  clientOptions: {
    documentSelector: { language: string }[];
    initializationOptions: unknown;
    middleware: { executeCommand(command: string, args: unknown[], next: (c: string, a: unknown[]) => unknown): unknown };
  };
  started: boolean;
  stopped: boolean;
  requests: { method: string; params: unknown }[];
}

export const clients: ClientRecord[] = [];
/** method -> answer (a function of the params) for sendRequest. */
export const answers = new Map<string, (params: unknown) => unknown>();

export class LanguageClient {
  readonly record: ClientRecord;
  constructor(id: string, _name: string, serverOptions: ClientRecord["serverOptions"], clientOptions: ClientRecord["clientOptions"]) {
    this.record = { id, serverOptions, clientOptions, started: false, stopped: false, requests: [] };
    clients.push(this.record);
  }
  async start(): Promise<void> {
    this.record.started = true;
  }
  async stop(): Promise<void> {
    this.record.stopped = true;
  }
  async sendRequest(type: { method: string }, params: unknown): Promise<unknown> {
    this.record.requests.push({ method: type.method, params });
    const answer = answers.get(type.method);
    if (!answer) throw new Error(`no answer for ${type.method}`);
    return answer(params);
  }
}
