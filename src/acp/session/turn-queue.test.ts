// The order of a session's turns: one at a time in the order they came, a cancel stops the running
// one and withdraws those waiting, and a turn that throws does not hold up the next.

import { describe, expect, it } from "vitest";

import { TurnQueue } from "./turn-queue.js";

/** A piece of work that runs until `finish` is called, noting when it starts and whether it was cancelled. */
function gate(log: string[], name: string) {
  let finish!: (value: string) => void;
  const done = new Promise<string>((resolve) => {
    finish = resolve;
  });
  let seen: AbortSignal | undefined;
  return {
    work: async (signal: AbortSignal) => {
      seen = signal;
      log.push(`start ${name}`);
      signal.addEventListener("abort", () => log.push(`abort ${name}`));
      return done;
    },
    finish: (value = name) => finish(value),
    signal: () => seen,
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("TurnQueue", () => {
  it("runs one turn at a time, in the order they came, and is busy until the last has ended", async () => {
    const queue = new TurnQueue();
    const log: string[] = [];
    const first = gate(log, "first");
    const second = gate(log, "second");
    expect(queue.busy).toBe(false);
    const one = queue.run(undefined, first.work);
    const two = queue.run(undefined, second.work);
    await settled();
    expect(log).toEqual(["start first"]);
    expect(queue.busy).toBe(true);
    first.finish();
    expect(await one).toBe("first");
    await settled();
    expect(log).toEqual(["start first", "start second"]);
    second.finish();
    expect(await two).toBe("second");
    expect(queue.busy).toBe(false);
  });

  it("cancel() aborts the running turn and withdraws the waiting ones, which never run", async () => {
    const queue = new TurnQueue();
    const log: string[] = [];
    const running = gate(log, "running");
    const waiting = gate(log, "waiting");
    const one = queue.run(undefined, running.work);
    const two = queue.run(undefined, waiting.work);
    await settled();
    queue.cancel();
    expect(running.signal()?.aborted).toBe(true);
    running.finish("cancelled by its signal");
    expect(await one).toBe("cancelled by its signal");
    expect(await two).toBe("withdrawn");
    expect(log).toEqual(["start running", "abort running"]);
    expect(queue.busy).toBe(false);
    // The queue goes on after a cancel.
    const after = gate(log, "after");
    const three = queue.run(undefined, after.work);
    await settled();
    after.finish();
    expect(await three).toBe("after");
  });

  it("a request withdrawn while it waits never runs, and the others are left alone", async () => {
    const queue = new TurnQueue();
    const log: string[] = [];
    const running = gate(log, "running");
    const withdrawn = gate(log, "withdrawn");
    const last = gate(log, "last");
    const request = new AbortController();
    const one = queue.run(undefined, running.work);
    const two = queue.run(request.signal, withdrawn.work);
    const three = queue.run(undefined, last.work);
    await settled();
    request.abort();
    expect(running.signal()?.aborted).toBe(false);
    running.finish();
    last.finish();
    expect([await one, await two, await three]).toEqual(["running", "withdrawn", "last"]);
    expect(log).toEqual(["start running", "start last"]);
  });

  it("a request's signal aborts its turn while it runs", async () => {
    const queue = new TurnQueue();
    const log: string[] = [];
    const running = gate(log, "running");
    const request = new AbortController();
    const one = queue.run(request.signal, running.work);
    await settled();
    request.abort();
    expect(running.signal()?.aborted).toBe(true);
    running.finish();
    await one;
    expect(log).toEqual(["start running", "abort running"]);
  });

  it("a turn that throws rejects its own run and the next turn still runs", async () => {
    const queue = new TurnQueue();
    const failing = queue.run(undefined, () => Promise.reject(new Error("boom")));
    const next = queue.run(undefined, async () => "next");
    await expect(failing).rejects.toThrow("boom");
    expect(await next).toBe("next");
    expect(queue.busy).toBe(false);
  });
});
