// The CLI's model files: onnxtxt/node's readers and writers (core/src/node/model-files.ts), with
// diagnostics styled for the terminal, and models written to stdout.
import { setDiagnosticsDescriber } from "../../core/src/node/model-files.js";
import { diagnosticsText } from "./pretty.js";

setDiagnosticsDescriber(diagnosticsText);

export * from "../../core/src/node/model-files.js";
export { textToStdout, writeModelToStdout } from "./model-stdout.js";
