// Whether output is still on its way to the client. Background analysis waits while it is: a
// 1 MB outline written between slices of re-inference reaches the editor a hundred
// milliseconds late, and so does every response queued behind it. The library writes each
// message with a completion callback (process.send over IPC, process.stdout.write over stdio);
// counting the callbacks not yet called tells what is in flight, whatever the transport.

type Callback = (error?: Error | null) => void;

/** Wraps `write` so that calls with a completion callback are counted until it runs. */
export function counted<F extends (...args: never[]) => boolean>(write: F, count: { pending: number }): F {
  return ((...args: unknown[]) => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback !== "function") return write(...(args as Parameters<F>));
    count.pending++;
    args[last] = (error?: Error | null) => {
      count.pending--;
      (callback as Callback)(error);
    };
    return write(...(args as Parameters<F>));
  }) as unknown as F;
}

/** Starts counting the messages in flight on the transport the command line names. */
export function watchOutput(argv: readonly string[] = process.argv): () => boolean {
  const count = { pending: 0 };
  if (argv.includes("--node-ipc") && process.send) process.send = counted(process.send.bind(process), count);
  else if (argv.includes("--stdio")) process.stdout.write = counted(process.stdout.write.bind(process.stdout), count);
  return () => count.pending > 0;
}
