import * as assert from "node:assert/strict";
import { counted } from "../../server/src/transport.js";

describe("server: output in flight", () => {
  it("counts a write with a completion callback until the callback runs, and passes its result and error on", () => {
    const count = { pending: 0 };
    const callbacks: ((error?: Error | null) => void)[] = [];
    const write = counted((_data: string, callback: (error?: Error | null) => void): boolean => {
      callbacks.push(callback);
      return false;
    }, count);
    const seen: (Error | null | undefined)[] = [];
    assert.equal(
      write("a", (e) => seen.push(e)),
      false,
    );
    write("b", (e) => seen.push(e));
    assert.equal(count.pending, 2);
    callbacks[0]!();
    assert.equal(count.pending, 1);
    const failure = new Error("pipe closed");
    callbacks[1]!(failure);
    assert.equal(count.pending, 0);
    assert.deepEqual(seen, [undefined, failure]);
  });

  it("does not count a write without a callback (nothing would say when it is done)", () => {
    const count = { pending: 0 };
    const write = counted((_data: string): boolean => true, count);
    assert.equal(write("a"), true);
    assert.equal(count.pending, 0);
  });
});
