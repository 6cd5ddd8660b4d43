// How long the server itself kept each hover waiting, from its timeline (server/src/trace.ts):
// from the read of the bytes that brought it to its response going out. The time a client
// measures adds its own reading, which on a big document includes megabytes of semantic tokens
// answered just before; this is the part the server owes.

/** The server-side wait of every hover in `trace`, in ms, in the order they were answered. */
export function hoverWaits(trace: string): number[] {
  let lastRead: number | undefined;
  const readAt = new Map<string, number>();
  const waits: number[] = [];
  for (const line of trace.split("\n")) {
    const space = line.indexOf(" ");
    const at = Number(line.slice(0, space));
    const event = line.slice(space + 1);
    if (event.startsWith("read ")) lastRead = at;
    const hover = /^in hover#(\d+)/.exec(event);
    if (hover) readAt.set(hover[1]!, lastRead ?? at);
    const id = /^out response#(\d+)/.exec(event)?.[1];
    const read = id === undefined ? undefined : readAt.get(id);
    if (read !== undefined) {
      waits.push(at - read);
      readAt.delete(id!);
    }
  }
  return waits;
}
