// Scenarios every store driver's LangGraph checkpointer test runs: a restart in the middle of an
// interrupted run, and two processes writing their own threads into one store at once.

import { spawn } from "node:child_process";

import { Command, INTERRUPT, isInterrupted } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { expect } from "vitest";

import type { Store } from "../../src/types/store.js";
import { fixturesDir } from "./agent-process.js";
import { paintedState, paintGraph } from "./paint-graph.js";

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
 * Two child processes (test/fixtures/langgraph-threads.ts) each run `threads` threads of their own,
 * at once, against the store `spec` names; then `reader` finds every thread finished and whole.
 */
export async function expectThreadsFromTwoProcesses(spec: string, reader: BaseCheckpointSaver, threads = 4): Promise<void> {
  const results = await Promise.all(["a", "b"].map((name) => runThreads(spec, name, threads)));
  // stderr is the message, not part of the check: Node may warn there (node:sqlite is experimental).
  expect(results.map((result) => result.code), results.map((result) => result.stderr).join("\n")).toEqual([0, 0]);
  for (const name of ["a", "b"]) {
    for (let index = 0; index < threads; index++) {
      const state = await paintGraph(reader).getState({ configurable: { thread_id: `${name}-${index}` } });
      expect(state.next).toEqual([]);
      expect(state.values).toEqual(paintedState(`${name}-${index}`));
    }
  }
}

function runThreads(spec: string, name: string, threads: number): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", `${fixturesDir}langgraph-threads.ts`, spec, name, String(threads)], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stderr })));
}
