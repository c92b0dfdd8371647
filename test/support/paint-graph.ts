// A tiny LangGraph graph for checkpointer tests: plan → ask (an interrupt()) → finish. `runs`
// counts how often each node ran, so a test can see what a resume re-ran. And the restart scenario
// each store driver's checkpointer test runs with it.

import { Annotation, Command, END, INTERRUPT, interrupt, isInterrupted, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { expect } from "vitest";

import type { Store } from "../../src/types/store.js";

const State = Annotation.Root({
  topic: Annotation<string>(),
  answer: Annotation<string>(),
  log: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});

export function paintGraph(saver: BaseCheckpointSaver, runs: Record<string, number> = {}) {
  const count = (node: string) => (runs[node] = (runs[node] ?? 0) + 1);
  return new StateGraph(State)
    .addNode("plan", (state) => {
      count("plan");
      return { log: [`plan ${state.topic}`] };
    })
    .addNode("ask", () => {
      count("ask");
      const answer = interrupt<{ question: string }, string>({ question: "Which colour?" });
      return { answer, log: [`asked, got ${answer}`] };
    })
    .addNode("finish", (state) => {
      count("finish");
      return { log: [`paint it ${state.answer}`] };
    })
    .addEdge(START, "plan")
    .addEdge("plan", "ask")
    .addEdge("ask", "finish")
    .addEdge("finish", END)
    .compile({ checkpointer: saver });
}

/**
 * Runs the graph to its interrupt on one store handle, closes it, and resumes on a second handle
 * from `open()`, as a restarted process would. Asserts what each side sees.
 */
export async function expectResumeAfterRestart(open: () => Store, saverOf: (store: Store) => BaseCheckpointSaver, thread: string): Promise<void> {
  const config = { configurable: { thread_id: thread } };
  const runs: Record<string, number> = {};

  const first = open();
  const interrupted = await paintGraph(saverOf(first), runs).invoke({ topic: "the shed" }, config);
  expect(isInterrupted(interrupted) && interrupted[INTERRUPT][0]?.value).toEqual({ question: "Which colour?" });
  await first.close?.();

  // A second process: a new store handle, a new saver, a new graph.
  const second = open();
  const graph = paintGraph(saverOf(second), runs);
  const state = await graph.getState(config);
  expect(state.next).toEqual(["ask"]);
  expect(state.values).toMatchObject({ topic: "the shed", log: ["plan the shed"] });
  expect(state.tasks[0]?.interrupts[0]?.value).toEqual({ question: "Which colour?" });

  const done = await graph.invoke(new Command({ resume: "green" }), config);
  expect(done).toMatchObject({ answer: "green", log: ["plan the shed", "asked, got green", "paint it green"] });
  // plan ran once; ask ran once to ask and once more on resume, which is how interrupt() works.
  expect(runs).toEqual({ plan: 1, ask: 2, finish: 1 });
  expect((await graph.getState(config)).next).toEqual([]);
  await second.close?.();
}

/**
 * Two store handles (two processes' connections) run the graph on different threads at once, to
 * the interrupt and on to the end; a third handle then finds every thread finished and whole.
 */
export async function expectConcurrentThreads(open: () => Store, saverOf: (store: Store) => BaseCheckpointSaver, threads = 6): Promise<void> {
  const handles = [open(), open()];
  await Promise.all(
    Array.from({ length: threads }, async (_, index) => {
      const graph = paintGraph(saverOf(handles[index % 2] as Store));
      const config = { configurable: { thread_id: `thread-${index}` } };
      await graph.invoke({ topic: `wall ${index}` }, config);
      await graph.invoke(new Command({ resume: `colour ${index}` }), config);
    }),
  );
  await Promise.all(handles.map((handle) => handle.close?.()));
  const reader = open();
  const graph = paintGraph(saverOf(reader));
  for (let index = 0; index < threads; index++) {
    const state = await graph.getState({ configurable: { thread_id: `thread-${index}` } });
    expect(state.next).toEqual([]);
    expect(state.values).toEqual({ topic: `wall ${index}`, answer: `colour ${index}`, log: [`plan wall ${index}`, `asked, got colour ${index}`, `paint it colour ${index}`] });
  }
  await reader.close?.();
}
