// setImmediate for a Web Worker: the handlers yield to pending messages with it (handlers.ts,
// priority.ts, workspace.ts). setTimeout(0) would do, but browsers clamp nested timeouts to
// 4 ms; a MessageChannel callback runs on the next turn without that delay.
type Immediate = (callback: () => void) => void;

const scope = globalThis as unknown as { setImmediate?: Immediate };

if (typeof scope.setImmediate !== "function") {
  const queue: (() => void)[] = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => queue.shift()?.();
  scope.setImmediate = (callback) => {
    queue.push(callback);
    channel.port2.postMessage(undefined);
  };
}
