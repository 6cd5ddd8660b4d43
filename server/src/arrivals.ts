// Counts the messages a transport reads, as it reads them (OrderState.arrived): the connection
// hands each one to the server an event-loop turn or more later, and whole-document work that
// pauses in between (slices.ts) waits for that, so a hover read meanwhile is answered first.
import type { MessageReader } from "vscode-languageserver";

/** `reader`, counting in `state.arrived` each message it reads. */
export function countingReader(reader: MessageReader, state: { arrived: number }): MessageReader {
  return {
    onError: reader.onError,
    onClose: reader.onClose,
    onPartialMessage: reader.onPartialMessage,
    listen: (callback) =>
      reader.listen((message) => {
        state.arrived++;
        callback(message);
      }),
    dispose: () => reader.dispose(),
  };
}
