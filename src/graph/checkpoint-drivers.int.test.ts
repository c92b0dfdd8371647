// The graph runtime's checkpoints on every store driver: a thread paused in one graph instance is
// resumed by another over the same store, a cancelled run is carried on by another instance, and a
// busy thread is refused across instances.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { abortableSleep } from "../../test/support/abortable-sleep.js";
import { cleanUpStores, storesUnderTest } from "../../test/support/servers.js";
import { openStore } from "../stores/open-store.js";
import type { Store } from "../types/store.js";
import { listChannel } from "./channels.js";
import { ThreadBusyError } from "./graph-errors.js";
import { START, StateGraph } from "./state-graph.js";

const temp = mkdtempSync(join(tmpdir(), "weft-checkpoints-"));
const specs: string[] = [];
afterAll(async () => {
  await cleanUpStores(specs.filter((spec) => spec.includes("://")));
  rmSync(temp, { recursive: true, force: true });
});

const build = (store: Store, onSlow?: () => void) =>
  new StateGraph({ name: "durable", channels: { log: listChannel<string>() } })
    .addNode("ask", (_state, context) => ({ log: `answer:${context.interrupt<string>("name?", { id: "name" })}` }))
    .addNode("slow", async (_state, context) => {
      onSlow?.();
      await abortableSleep(onSlow ? 60_000 : 0, context.signal);
      return { log: "slow done" };
    })
    .addEdge(START, "ask")
    .addEdge("ask", "slow")
    .compile({ store });

describe.each(storesUnderTest(() => temp))("graph checkpoints on $name", ({ skip, spec }) => {
  it.skipIf(skip !== undefined)(`pause, resume, cancel and carry on across instances${skip ? ` (skipped: ${skip})` : ""}`, async () => {
    const location = spec();
    specs.push(location);
    const storeA = await openStore(location);
    const storeB = await openStore(location);
    try {
      let started!: () => void;
      const slowStarted = new Promise<void>((resolve) => {
        started = resolve;
      });
      const first = build(storeA, () => started());
      const paused = await first.run({}, { threadId: "thread-1" }).outcome;
      expect(paused).toEqual({ status: "interrupted", interrupts: [{ id: "name", value: "name?", node: "ask" }] });

      const controller = new AbortController();
      const resumed = build(storeB, () => started()).resume({ name: "Ann" }, { threadId: "thread-1", signal: controller.signal });
      await slowStarted;
      const busy = await first.run({}, { threadId: "thread-1" }).outcome;
      expect(busy.status === "failed" && busy.error).toBeInstanceOf(ThreadBusyError);
      controller.abort();
      expect(await resumed.outcome).toEqual({ status: "cancelled" });

      const carried = await build(storeA).continue({ threadId: "thread-1" }).outcome;
      expect(carried).toEqual({ status: "completed", output: { log: ["answer:Ann", "slow done"] } });
      expect(await build(storeB).state("thread-1")).toEqual({ log: ["answer:Ann", "slow done"] });
    } finally {
      await storeA.close?.();
      await storeB.close?.();
    }
  });
});
