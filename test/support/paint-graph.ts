// A tiny LangGraph graph for checkpointer tests: plan → ask (an interrupt()) → finish. `runs`
// counts how often each node ran, so a test can see what a resume re-ran.

import { Annotation, Command, END, interrupt, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

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

/** Runs thread `name` to its question and answers it: topic `wall <name>`, answer `colour <name>`. */
export async function paintThread(saver: BaseCheckpointSaver, name: string): Promise<void> {
  const graph = paintGraph(saver);
  const config = { configurable: { thread_id: name } };
  await graph.invoke({ topic: `wall ${name}` }, config);
  await graph.invoke(new Command({ resume: `colour ${name}` }), config);
}

/** The state `paintThread` leaves thread `name` in. */
export function paintedState(name: string) {
  return { topic: `wall ${name}`, answer: `colour ${name}`, log: [`plan wall ${name}`, `asked, got colour ${name}`, `paint it colour ${name}`] };
}
