// A ProtocolGraph that answers each call (run, resume, continue) with the next scripted run: the
// events it streams and the outcome it ends with. For unit tests of protocol code that must see each
// kind of outcome (a failure, an interrupt, a finish reason) without a model behind it.

import type { ThreadInfo } from "../../src/graph/compiled-graph.js";
import type { RunEvent } from "../../src/graph/events.js";
import type { ProtocolGraph, ProtocolResult, ProtocolRun, ProtocolRunOptions } from "../../src/graph/protocol-graph.js";

export interface ScriptedRun {
  events?: RunEvent[] | undefined;
  outcome: ProtocolResult;
}

export interface GraphCall {
  kind: "run" | "resume" | "continue";
  input?: unknown;
  answers?: Record<string, unknown> | undefined;
  options: ProtocolRunOptions;
}

export interface ScriptedGraphOptions {
  /** What `thread()` answers; without it the graph has no `thread` method. */
  thread?: ((threadId: string) => ThreadInfo | undefined) | undefined;
  /** Whether the graph can `continue` a thread. */
  continues?: boolean | undefined;
}

export class ScriptedGraph implements ProtocolGraph {
  readonly name = "scripted";
  readonly calls: GraphCall[] = [];
  readonly thread?: (threadId: string) => Promise<ThreadInfo | undefined>;
  readonly continue?: (options: ProtocolRunOptions) => ProtocolRun;

  constructor(
    private readonly script: ScriptedRun[] | ((call: GraphCall, index: number) => ScriptedRun),
    options: ScriptedGraphOptions = {},
  ) {
    const thread = options.thread;
    if (thread) {
      this.thread = async (threadId) => thread(threadId);
    }
    if (options.continues) {
      this.continue = (runOptions) => this.next({ kind: "continue", options: runOptions });
    }
  }

  run(input: unknown, options: ProtocolRunOptions): ProtocolRun {
    return this.next({ kind: "run", input, options });
  }

  resume(answers: Record<string, unknown>, options: ProtocolRunOptions): ProtocolRun {
    return this.next({ kind: "resume", answers, options });
  }

  private next(call: GraphCall): ProtocolRun {
    const index = this.calls.length;
    this.calls.push(call);
    const spec = typeof this.script === "function" ? this.script(call, index) : this.script[index];
    if (!spec) {
      throw new Error(`ScriptedGraph has no run number ${index + 1}.`);
    }
    const events = spec.events ?? [];
    return {
      runId: call.options.runId ?? `run_${index + 1}`,
      threadId: call.options.threadId,
      outcome: Promise.resolve(spec.outcome),
      async *[Symbol.asyncIterator]() {
        yield* events;
      },
    };
  }
}
