// The local errors a graph run can end with. They arrive inside a `failed` outcome, never thrown
// from `run()` or `resume()`.

import { errorMessage } from "../errors/error-message.js";
import { WeftError } from "../errors/weft-error.js";

/** Another run holds the thread (in this process or another one sharing the store). */
export class ThreadBusyError extends WeftError {
  static override readonly errorName = "ThreadBusyError";

  constructor(readonly threadId: string) {
    super("thread_busy", `Thread ${threadId} already has a run in progress.`);
  }
}

/** A resume named interrupts the thread is not waiting on, or named none. */
export class UnknownInterruptError extends WeftError {
  static override readonly errorName = "UnknownInterruptError";

  constructor(
    readonly threadId: string,
    readonly interruptIds: string[],
    readonly reason: "not_pending" | "empty",
  ) {
    super(
      "unknown_interrupt",
      reason === "empty"
        ? `Resume of thread ${threadId} answered no interrupts.`
        : `Thread ${threadId} is not waiting on interrupt ${interruptIds.map((id) => JSON.stringify(id)).join(", ")}.`,
    );
  }
}

/** A graph that cannot run as defined (unknown node, no entry edge). */
export class GraphDefinitionError extends WeftError {
  static override readonly errorName = "GraphDefinitionError";

  constructor(message: string) {
    super("graph_definition", message);
  }
}

/** A node threw. `cause` is what it threw. */
export class NodeFailedError extends WeftError {
  static override readonly errorName = "NodeFailedError";

  constructor(
    readonly node: string,
    cause: unknown,
  ) {
    super("node_failed", `Node "${node}" failed: ${errorMessage(cause)}`, { cause });
  }
}

/** Another process took over the thread while this run was still going (its lease ran out). */
export class LeaseLostError extends WeftError {
  static override readonly errorName = "LeaseLostError";

  constructor(readonly threadId: string) {
    super("lease_lost", `Thread ${threadId} was taken over by another runner.`);
  }
}
