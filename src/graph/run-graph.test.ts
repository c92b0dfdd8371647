import { describe, expect, expectTypeOf, it } from "vitest";

import { abortableSleep } from "../../test/support/abortable-sleep.js";
import { MemoryStore } from "../store-core/memory-store.js";
import type { JsonValue } from "../types/json.js";
import type { Store } from "../types/store.js";
import { listChannel, valueChannel } from "./channels.js";
import type { RunEvent } from "./events.js";
import { LeaseLostError, NodeFailedError, ThreadBusyError, UnknownInterruptError } from "./graph-errors.js";
import { messagesChannel, userMessage } from "./messages.js";
import type { NodeContext } from "./node-context.js";
import type { GraphRun, RunFinish } from "./run-outcome.js";
import { END, START, StateGraph } from "./state-graph.js";
import type { StepRecord } from "./thread-store.js";

async function collect<S>(run: GraphRun<S>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run) {
    events.push(event);
  }
  return events;
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const counterGraph = (store?: Store) =>
  new StateGraph({ name: "counter", channels: { log: listChannel<string>(), count: valueChannel(0) } })
    .addNode("a", (state) => ({ log: "a", count: state.count + 1 }))
    .addNode("b", (state) => ({ log: ["b"], count: state.count + 10 }))
    .addEdge(START, "a")
    .addConditionalEdges("a", (state) => (state.count < 3 ? "a" : "b"))
    .addEdge("b", END)
    .compile(store ? { store } : {});

describe("graph runs", () => {
  it("runs nodes along edges and reducers until the graph ends", async () => {
    const graph = counterGraph();
    const outcome = await graph.run({}, { threadId: "t1" }).outcome;
    expect(outcome).toEqual({ status: "completed", output: { log: ["a", "a", "a", "b"], count: 13 } });
  });

  it("carries a thread's state into its next run", async () => {
    const graph = counterGraph();
    await graph.run({}, { threadId: "t1" }).outcome;
    const second = await graph.run({ count: 0 }, { threadId: "t1" }).outcome;
    expect(second.status === "completed" && second.output.log).toEqual(["a", "a", "a", "b", "a", "a", "a", "b"]);
  });

  it("streams node events as they happen, between run-start and run-end", async () => {
    const gate = deferred();
    const graph = new StateGraph({ name: "stream", channels: { done: valueChannel(false) } })
      .addNode("talk", async (_state, context) => {
        context.emit({ type: "text-delta", messageId: "m1", delta: "one" });
        await gate.promise;
        context.emit({ type: "text-delta", messageId: "m1", delta: "two" });
        return { done: true };
      })
      .addEdge(START, "talk")
      .compile();
    const run = graph.run({}, { threadId: "t" });
    const iterator = run[Symbol.asyncIterator]();
    const seen: string[] = [];
    for (;;) {
      const { value } = await iterator.next();
      seen.push(value.type);
      if (value.type === "text-delta") {
        break;
      }
    }
    // The first delta arrived while the node was still waiting: events are not held until the end.
    expect(seen).toEqual(["run-start", "checkpoint", "node-start", "text-delta"]);
    gate.resolve();
    const rest: RunEvent[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      rest.push(next.value);
    }
    expect(rest.map((event) => event.type)).toEqual(["text-delta", "node-end", "checkpoint", "run-end"]);
    expect((await run.outcome).status).toBe("completed");
  });

  it("runs the nodes of one step concurrently and applies their writes in declaration order", async () => {
    const bothStarted = { a: deferred(), b: deferred() };
    const graph = new StateGraph({ name: "fan", channels: { log: listChannel<string>() } })
      .addNode("a", async () => {
        bothStarted.a.resolve();
        await bothStarted.b.promise;
        return { log: "a" };
      })
      .addNode("b", async () => {
        bothStarted.b.resolve();
        await bothStarted.a.promise;
        return { log: "b" };
      })
      .addEdge(START, "b")
      .addEdge(START, "a")
      .compile();
    const outcome = await graph.run({}, { threadId: "t" }).outcome;
    expect(outcome.status === "completed" && outcome.output.log).toEqual(["b", "a"]);
  });

  it("hands the principal to every node", async () => {
    const seen: unknown[] = [];
    const graph = new StateGraph({ name: "who", channels: { x: valueChannel(0) } })
      .addNode("a", (_state, context) => {
        seen.push(context.principal);
      })
      .addNode("b", (_state, context) => {
        seen.push(context.principal?.id);
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    await graph.run({}, { threadId: "t", principal: { id: "ann", name: "Ann" } }).outcome;
    expect(seen).toEqual([{ id: "ann", name: "Ann" }, "ann"]);
  });

  it("hands the run's config to every node, and an empty one to a run without", async () => {
    const seen: unknown[] = [];
    const graph = new StateGraph({ name: "configured", channels: { x: valueChannel(0) } })
      .addNode("a", (_state, context) => {
        seen.push(context.config);
      })
      .addEdge(START, "a")
      .compile();
    await graph.run({}, { threadId: "t", config: { model: "fast", verbose: true } }).outcome;
    await graph.run({}, { threadId: "u" }).outcome;
    expect(seen).toEqual([{ model: "fast", verbose: true }, {}]);
  });

  it("asks a config function again before each step, so a change applies from the next one", async () => {
    let model = "fast";
    const seen: unknown[] = [];
    const graph = new StateGraph({ name: "switching", channels: { x: valueChannel(0) } })
      .addNode("a", (_state, context) => {
        seen.push(context.config.model);
        model = "smart";
        seen.push(context.config.model);
      })
      .addNode("b", (_state, context) => {
        seen.push(context.config.model);
      })
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    await graph.run({}, { threadId: "t", config: () => ({ model }) }).outcome;
    expect(seen).toEqual(["fast", "fast", "smart"]);
  });

  it("ends with finish max_steps when the step limit is reached", async () => {
    const graph = new StateGraph({ name: "loop", channels: { n: valueChannel(0) } })
      .addNode("spin", (state) => ({ n: state.n + 1 }))
      .addEdge(START, "spin")
      .addEdge("spin", "spin")
      .compile({ maxSteps: 5 });
    const outcome = await graph.run({}, { threadId: "t" }).outcome;
    expect(outcome).toEqual({ status: "completed", output: { n: 5 }, finish: "max_steps" });
  });

  it("ends after the step where a node calls end, with its reason, which is one of the runtime's own", async () => {
    const graph = new StateGraph({ name: "refuser", channels: { n: valueChannel(0) } })
      .addNode("answer", (state, context) => {
        context.end("refusal");
        return { n: state.n + 1 };
      })
      .addNode("after", (state) => ({ n: state.n + 10 }))
      .addEdge(START, "answer")
      .addEdge("answer", "after")
      .compile();
    const outcome = await graph.run({}, { threadId: "t" }).outcome;
    expect(outcome).toEqual({ status: "completed", output: { n: 1 }, finish: "refusal" });
    expect((await graph.thread("t"))?.finish).toBe("refusal");
    if (outcome.status === "completed") {
      expectTypeOf(outcome.finish).toEqualTypeOf<RunFinish | undefined>();
    }
    const endWithAnyWord = (context: NodeContext) => {
      // @ts-expect-error: a reason is a RunFinish, not any string
      context.end("done");
    };
    expect(endWithAnyWord).toBeTypeOf("function");
  });

  it("fails with NodeFailedError when a node throws, keeping the last good state", async () => {
    let fail = true;
    const graph = new StateGraph({ name: "fragile", channels: { log: listChannel<string>() } })
      .addNode("ok", () => ({ log: "ok" }))
      .addNode("bad", () => {
        if (fail) {
          throw new Error("disk full");
        }
        return { log: "bad" };
      })
      .addEdge(START, "ok")
      .addEdge("ok", "bad")
      .compile();
    const outcome = await graph.run({}, { threadId: "t" }).outcome;
    expect(outcome.status).toBe("failed");
    const error = outcome.status === "failed" ? outcome.error : undefined;
    expect(error).toBeInstanceOf(NodeFailedError);
    expect(error?.message).toContain("disk full");
    expect(await graph.state("t")).toEqual({ log: ["ok"] });
    expect((await graph.thread("t"))?.status).toBe("failed");
    fail = false;
    const retried = await graph.continue({ threadId: "t" }).outcome;
    expect(retried.status === "completed" && retried.output.log).toEqual(["ok", "bad"]);
  });

  it("fails the run when a node writes a channel the graph does not have", async () => {
    const graph = new StateGraph({ name: "typo", channels: { a: valueChannel(0) } })
      .addNode("n", () => ({ b: 1 }) as never)
      .addEdge(START, "n")
      .compile();
    const outcome = await graph.run({}, { threadId: "t" }).outcome;
    expect(outcome.status === "failed" && outcome.error.message).toContain('unknown channel "b"');
  });

  it("never rejects its outcome, even when the store fails", async () => {
    const store = new MemoryStore();
    store.compareAndPut = () => Promise.reject(new Error("connection reset"));
    const graph = counterGraph(store);
    const outcome = await graph.run({}, { threadId: "t" }).outcome;
    expect(outcome.status === "failed" && outcome.error.message).toBe("connection reset");
  });
});

describe("interrupts", () => {
  const askGraph = () =>
    new StateGraph({ name: "ask", channels: { answers: listChannel<unknown>(), runs: valueChannel(0) } })
      .addNode("ask", (state, context) => {
        const answer = context.interrupt<string>({ question: "name?" }, { id: "name" });
        return { answers: answer, runs: state.runs + 1 };
      })
      .addEdge(START, "ask")
      .compile();

  it("pauses with the interrupt's stable id and value, and resume by id returns the answer to the node", async () => {
    const graph = askGraph();
    const run = graph.run({}, { threadId: "t" });
    const events = await collect(run);
    const outcome = await run.outcome;
    expect(outcome).toEqual({ status: "interrupted", interrupts: [{ id: "name", value: { question: "name?" }, node: "ask" }] });
    expect(events.filter((event) => event.type === "interrupt")).toHaveLength(1);
    expect((await graph.thread("t"))?.pending.map((interrupt) => interrupt.id)).toEqual(["name"]);
    const resumed = await graph.resume({ name: "Ann" }, { threadId: "t" }).outcome;
    expect(resumed).toEqual({ status: "completed", output: { answers: ["Ann"], runs: 1 } });
    expect((await graph.thread("t"))?.pending).toEqual([]);
  });

  it("keeps a question's answer schema with it, in the outcome and in the store a new graph reads", async () => {
    const store = new MemoryStore();
    const schema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
    const build = () =>
      new StateGraph({ name: "form", channels: { got: valueChannel<unknown>(null) } })
        .addNode("ask", (_state, context) => ({ got: context.interrupt({ question: "name?" }, { id: "name", schema }) }))
        .addNode("plain", (_state, context) => ({ got: context.interruptAll([{ id: "colour", value: "colour?", schema }]) }))
        .addEdge(START, "ask")
        .addEdge("ask", "plain")
        .compile({ store });
    const outcome = await build().run({}, { threadId: "t" }).outcome;
    expect(outcome).toEqual({ status: "interrupted", interrupts: [{ id: "name", value: { question: "name?" }, node: "ask", schema }] });
    // Another process (a new graph over the same store) sees the schema of the pending question.
    const again = build();
    expect((await again.thread("t"))?.pending).toEqual([{ id: "name", value: { question: "name?" }, node: "ask", schema }]);
    const next = await again.resume({ name: { action: "accept", content: { name: "Ann" } } }, { threadId: "t" }).outcome;
    expect(next).toEqual({ status: "interrupted", interrupts: [{ id: "colour", value: "colour?", node: "plain", schema }] });
  });

  it("derives the same default id when the node asks again", async () => {
    const graph = new StateGraph({ name: "default-id", channels: { got: valueChannel<unknown>(null) } })
      .addNode("ask", (_state, context) => ({ got: context.interrupt("first?") }))
      .addEdge(START, "ask")
      .compile();
    const first = await graph.run({}, { threadId: "t" }).outcome;
    const id = first.status === "interrupted" ? first.interrupts[0]?.id : undefined;
    expect(id).toMatch(/^ask:\d+:0$/);
    const resumed = await graph.resume({ [id as string]: 42 }, { threadId: "t" }).outcome;
    expect(resumed.status === "completed" && resumed.output.got).toBe(42);
  });

  it("accepts partial answers and keeps waiting on the rest", async () => {
    const graph = new StateGraph({ name: "two", channels: { got: valueChannel<Record<string, unknown>>({}) } })
      .addNode("ask", (_state, context) => ({
        got: context.interruptAll([
          { id: "x", value: "x?" },
          { id: "y", value: "y?" },
        ]),
      }))
      .addEdge(START, "ask")
      .compile();
    const first = await graph.run({}, { threadId: "t" }).outcome;
    expect(first.status === "interrupted" && first.interrupts.map((interrupt) => interrupt.id)).toEqual(["x", "y"]);
    const partial = await graph.resume({ y: "yes" }, { threadId: "t" }).outcome;
    expect(partial).toEqual({ status: "interrupted", interrupts: [{ id: "x", value: "x?", node: "ask" }] });
    const done = await graph.resume({ x: "ex" }, { threadId: "t" }).outcome;
    expect(done).toEqual({ status: "completed", output: { got: { x: "ex", y: "yes" } } });
  });

  it("refuses an unknown id with UnknownInterruptError and leaves the thread waiting", async () => {
    const graph = askGraph();
    await graph.run({}, { threadId: "t" }).outcome;
    const wrong = await graph.resume({ name: "Ann", nope: 1 }, { threadId: "t" }).outcome;
    expect(wrong.status).toBe("failed");
    const error = wrong.status === "failed" ? wrong.error : undefined;
    expect(error).toBeInstanceOf(UnknownInterruptError);
    expect((error as UnknownInterruptError).interruptIds).toEqual(["nope"]);
    expect((error as UnknownInterruptError).reason).toBe("not_pending");
    const thread = await graph.thread("t");
    expect(thread?.status).toBe("interrupted");
    expect(thread?.pending.map((interrupt) => interrupt.id)).toEqual(["name"]);
    expect((await graph.resume({ name: "Ann" }, { threadId: "t" }).outcome).status).toBe("completed");
  });

  it("refuses answers to a thread that waits on nothing, and an empty answer map", async () => {
    const graph = askGraph();
    const none = await graph.resume({ name: "x" }, { threadId: "fresh" }).outcome;
    expect(none.status === "failed" && none.error).toBeInstanceOf(UnknownInterruptError);
    await graph.run({}, { threadId: "t" }).outcome;
    const empty = await graph.resume({}, { threadId: "t" }).outcome;
    expect(empty.status === "failed" && (empty.error as UnknownInterruptError).reason).toBe("empty");
  });

  it("does not run finished sibling nodes or memoised work again on resume", async () => {
    const calls = { quick: 0, work: 0 };
    const graph = new StateGraph({ name: "siblings", channels: { log: listChannel<string>() } })
      .addNode("quick", () => {
        calls.quick++;
        return { log: "quick" };
      })
      .addNode("slow", async (_state, context) => {
        const done = await context.memo("work", async () => {
          calls.work++;
          return "worked" as JsonValue;
        });
        const answer = context.interrupt<string>("go?", { id: "go" });
        return { log: `${String(done)}-${answer}` };
      })
      .addEdge(START, "quick")
      .addEdge(START, "slow")
      .compile();
    await graph.run({}, { threadId: "t" }).outcome;
    const outcome = await graph.resume({ go: "yes" }, { threadId: "t" }).outcome;
    expect(outcome.status === "completed" && outcome.output.log).toEqual(["quick", "worked-yes"]);
    expect(calls).toEqual({ quick: 1, work: 1 });
  });

  it("starts afresh when a new run comes while the thread waits", async () => {
    const graph = askGraph();
    await graph.run({}, { threadId: "t" }).outcome;
    const again = await graph.run({}, { threadId: "t" }).outcome;
    expect(again.status).toBe("interrupted");
  });
});

describe("cancellation and durability", () => {
  const slowGraph = (store: Store, started?: () => void) =>
    new StateGraph({ name: "slow", channels: { log: listChannel<string>() } })
      .addNode("first", () => ({ log: "first" }))
      .addNode("second", async (_state, context) => {
        started?.();
        await abortableSleep(60_000, context.signal);
        return { log: "second" };
      })
      .addEdge(START, "first")
      .addEdge("first", "second")
      .compile({ store });

  /** A run of slowGraph on thread "t", once its slow node has started; abort `controller` to cancel it. */
  async function slowRunStarted(store: Store) {
    const started = deferred();
    const graph = slowGraph(store, started.resolve);
    const controller = new AbortController();
    const run = graph.run({}, { threadId: "t", signal: controller.signal });
    await started.promise;
    return { graph, run, controller };
  }

  it("cancels on abort in the middle of a node and keeps the checkpoint before it", async () => {
    const { graph, run, controller } = await slowRunStarted(new MemoryStore());
    controller.abort();
    const events = await collect(run);
    expect(await run.outcome).toEqual({ status: "cancelled" });
    expect(events.at(-1)).toEqual({ type: "run-end", status: "cancelled" });
    expect(await graph.state("t")).toEqual({ log: ["first"] });
    expect((await graph.thread("t"))?.status).toBe("cancelled");
  });

  it("lets a second runtime instance over the same store continue from the last checkpoint", async () => {
    const store = new MemoryStore();
    const { run, controller } = await slowRunStarted(store);
    controller.abort();
    await run.outcome;

    const second = new StateGraph({ name: "slow", channels: { log: listChannel<string>() } })
      .addNode("first", () => {
        throw new Error("first must not run again");
      })
      .addNode("second", () => ({ log: "second, by the new instance" }))
      .addEdge(START, "first")
      .addEdge("first", "second")
      .compile({ store });
    expect(await second.state("t")).toEqual({ log: ["first"] });
    const outcome = await second.continue({ threadId: "t" }).outcome;
    expect(outcome).toEqual({ status: "completed", output: { log: ["first", "second, by the new instance"] } });
  });

  it("runs the last step again on continue when the process died after its head was written and before its record", async () => {
    const store = new MemoryStore();
    const done = await counterGraph(store).run({}, { threadId: "t" }).outcome;
    expect(done).toMatchObject({ status: "completed", output: { count: 13 } });
    // What a crash between the final head and the final record leaves: a completed head whose step record is missing.
    const namespace = ["weft", "graphs", "counter", "t"];
    const records = (await store.search(namespace, { limit: 100 })).filter((item) => item.key !== "head");
    await store.delete(namespace, (records.at(-1) as { key: string }).key);
    expect((await store.get(namespace, "head"))?.value).toMatchObject({ status: "completed" });

    const outcome = await counterGraph(store).continue({ threadId: "t" }).outcome;
    expect(outcome).toEqual({ status: "completed", output: { log: ["a", "a", "a", "b"], count: 13 } });
  });

  it("refuses a second run on a busy thread with ThreadBusyError, in this instance and another", async () => {
    const store = new MemoryStore();
    const { graph, run: running, controller } = await slowRunStarted(store);
    const same = await graph.run({}, { threadId: "t" }).outcome;
    expect(same.status === "failed" && same.error).toBeInstanceOf(ThreadBusyError);
    const other = await slowGraph(store).run({}, { threadId: "t" }).outcome;
    expect(other.status === "failed" && other.error).toBeInstanceOf(ThreadBusyError);
    expect((await graph.thread("t"))?.status).toBe("running");
    controller.abort();
    await running.outcome;
    const other2 = slowGraph(store);
    const next = other2.run({}, { threadId: "t", signal: AbortSignal.timeout(50) });
    expect((await next.outcome).status).toBe("cancelled");
  });

  it("forgets a deleted thread entirely", async () => {
    const store = new MemoryStore();
    const graph = counterGraph(store);
    await graph.run({}, { threadId: "gone" }).outcome;
    await graph.run({}, { threadId: "kept" }).outcome;
    await graph.deleteThread("gone");
    expect(await graph.thread("gone")).toBeUndefined();
    expect(await graph.state("gone")).toBeUndefined();
    expect(await store.listNamespaces()).toEqual([["weft", "graphs", "counter", "kept"]]);
  });

  it("stores only what each step appended to a list channel", async () => {
    const store = new MemoryStore();
    const graph = new StateGraph({ name: "chat", channels: { messages: messagesChannel() } })
      .addNode("reply", (state) => ({ messages: userMessage(`reply ${state.messages.length}`) }))
      .addEdge(START, "reply")
      .compile({ store });
    const history = [userMessage("one")];
    for (let turn = 0; turn < 5; turn++) {
      const outcome = await graph.run({ messages: history.slice() }, { threadId: "t" }).outcome;
      if (outcome.status === "completed") {
        history.splice(0, history.length, ...outcome.output.messages, userMessage(`next ${turn}`));
      }
    }
    const records = (await store.search(["weft", "graphs", "chat", "t"], { limit: 100 }))
      .filter((item) => item.key !== "head")
      .map((item) => item.value as unknown as StepRecord);
    const appended = records.map((record) => record.changes?.messages);
    for (const change of appended) {
      expect(change && "append" in change ? change.append.length : 0).toBeLessThanOrEqual(1);
    }
    const state = await graph.state("t");
    expect(state?.messages).toHaveLength(10);
  });
});

describe("the thread's lease", () => {
  const namespace = ["weft", "graphs", "held", "t"];
  /** A graph whose one node runs until `finish` says, renewing its lease every 50ms meanwhile. */
  const heldGraph = (store: Store, started: () => void, finish: Promise<void>) =>
    new StateGraph({ name: "held", channels: { log: listChannel<string>() } })
      .addNode("work", async (_state, context) => {
        started();
        await Promise.race([finish, new Promise((resolve) => context.signal.addEventListener("abort", resolve, { once: true }))]);
        return { log: "work" };
      })
      .addEdge(START, "work")
      .compile({ store, leaseMs: 150 });

  /** Another writer takes the thread's head from under the run. */
  async function takeHead(store: Store): Promise<void> {
    const head = await store.get(namespace, "head");
    const taken = { ...(head?.value as Record<string, JsonValue>), runId: "thief" };
    expect(await store.compareAndPut(namespace, "head", taken, { expected: head?.revision ?? 0 })).toBeDefined();
  }

  it("renews the lease while a node runs, and stops with LeaseLostError once another writer takes the thread", async () => {
    const shared = new MemoryStore();
    const renewed = deferred();
    let heads = 0;
    const store: Store = new Proxy(shared, {
      get(target, property, receiver) {
        if (property === "compareAndPut") {
          return async (...args: Parameters<Store["compareAndPut"]>) => {
            const revision = await target.compareAndPut(...args);
            // The claim and the input's commit write the head first; the third write is a renewal.
            if (args[1] === "head" && ++heads === 3) {
              renewed.resolve();
            }
            return revision;
          };
        }
        const member: unknown = Reflect.get(target, property, receiver);
        return typeof member === "function" ? (member as (...args: unknown[]) => unknown).bind(target) : member;
      },
    });
    const started = deferred();
    const run = heldGraph(store, started.resolve, new Promise(() => undefined)).run({}, { threadId: "t" });
    await started.promise;
    await renewed.promise;
    expect((await shared.get(namespace, "head"))?.value).toMatchObject({ status: "running", runId: expect.not.stringMatching("thief") });
    await takeHead(shared);
    const outcome = await run.outcome;
    expect(outcome.status === "failed" && outcome.error).toBeInstanceOf(LeaseLostError);
    expect((await shared.get(namespace, "head"))?.value).toMatchObject({ runId: "thief", status: "running" });
  });

  it("writes no step when a renewal finds the thread taken while the step waits to commit behind it", async () => {
    const shared = new MemoryStore();
    let armed = false;
    const inFlight = deferred();
    const gate = deferred();
    // When armed, the next head write (a renewal) finds the head taken, and answers when the test says.
    const store: Store = new Proxy(shared, {
      get(target, property, receiver) {
        if (property === "compareAndPut") {
          return async (...args: Parameters<Store["compareAndPut"]>) => {
            if (armed && args[1] === "head") {
              armed = false;
              await takeHead(target);
              const revision = await target.compareAndPut(...args);
              inFlight.resolve();
              await gate.promise;
              return revision;
            }
            return target.compareAndPut(...args);
          };
        }
        const member: unknown = Reflect.get(target, property, receiver);
        return typeof member === "function" ? (member as (...args: unknown[]) => unknown).bind(target) : member;
      },
    });
    const started = deferred();
    const finish = deferred();
    const run = heldGraph(store, started.resolve, finish.promise).run({}, { threadId: "t" });
    const events: RunEvent[] = [];
    const nodeEnded = deferred();
    const collected = (async () => {
      for await (const event of run) {
        events.push(event);
        if (event.type === "node-end") {
          nodeEnded.resolve();
        }
      }
    })();
    await started.promise;
    armed = true;
    await inFlight.promise;
    finish.resolve();
    await nodeEnded.promise;
    // Let the finished step reach its commit, which waits behind the renewal.
    await new Promise((resolve) => setImmediate(resolve));
    gate.resolve();
    const outcome = await run.outcome;
    await collected;
    expect(outcome.status === "failed" && outcome.error).toBeInstanceOf(LeaseLostError);
    const records = (await shared.search(namespace, { limit: 100 })).filter((item) => item.key !== "head").map((item) => (item.value as { kind: string }).kind);
    expect(records).toEqual(["input"]);
    expect(events.filter((event) => event.type === "checkpoint")).toHaveLength(1);
  });
});
