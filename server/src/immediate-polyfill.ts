// setImmediate for Web Workers, which have none: the server and the interpreter yield to the
// event loop with it. A MessageChannel message runs before timers, as setImmediate does in Node
// (setTimeout(0) would be clamped to 4 ms after a few nested calls).
type Immediate = (callback: (...args: unknown[]) => void, ...args: unknown[]) => unknown;

const scope = globalThis as { setImmediate?: Immediate };
if (typeof scope.setImmediate !== "function") {
  const channel = new MessageChannel();
  const queue: (() => void)[] = [];
  channel.port1.onmessage = () => queue.shift()?.();
  scope.setImmediate = (callback, ...args) => {
    queue.push(() => callback(...args));
    channel.port2.postMessage(null);
    return undefined;
  };
}
