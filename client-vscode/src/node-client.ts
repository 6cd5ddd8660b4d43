// The desktop's language client: the bundled server (or the one `onnxtxt.server.path` names)
// in a Node process, over IPC.
import { LanguageClient, TransportKind, type ServerOptions } from "vscode-languageclient/node";
import { clientTrace, tracedMiddleware } from "./client-trace.js";
import { type ClientFactory, clientOptions } from "./language-client.js";

/**
 * The server makes no TLS connection, and Node would read and parse the certificates
 * NODE_EXTRA_CA_CERTS names at every start (30 ms with Debian's bundle of them): the server's
 * environment goes without it (the language client merges this into the extension host's).
 */
const SERVER_ENV = { NODE_EXTRA_CA_CERTS: undefined };

export const createNodeClient: ClientFactory = (context, settings, run) => {
  const module = settings.serverPath || context.asAbsolutePath("dist/server.js");
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { env: SERVER_ENV } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ["--nolazy", "--inspect=6009"] } },
  };
  const options = clientOptions(settings, run);
  const trace = clientTrace();
  if (trace) options.middleware = tracedMiddleware(options.middleware ?? {}, trace);
  return new LanguageClient("onnxtxt", "ONNX Text Language Server", serverOptions, options);
};
