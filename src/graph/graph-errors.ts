// The local errors a graph run can end with. They arrive inside a `failed` outcome, never thrown
// from `run()` or `resume()`.

import { errorMessage } from "../errors/error-message.js";
import { hasMarker, WeftError } from "../errors/weft-error.js";

const threadBusyErrorMarker = Symbol.for("weft.error.ThreadBusyError");

/** Another run holds the thread (in this process or another one sharing the store). */
export class ThreadBusyError extends WeftError {
  readonly [threadBusyErrorMarker] = true;

  static override isInstance(error: unknown): error is ThreadBusyError {
    return hasMarker(error, threadBusyErrorMarker);
  }

  constructor(readonly threadId: string) {
    super("thread_busy", `Thread ${threadId} already has a run in progress.`);
    this.name = "ThreadBusyError";
  }
}

const unknownInterruptErrorMarker = Symbol.for("weft.error.UnknownInterruptError");

/** A resume named interrupts the thread is not waiting on, or named none. */
export class UnknownInterruptError extends WeftError {
  readonly [unknownInterruptErrorMarker] = true;

  static override isInstance(error: unknown): error is UnknownInterruptError {
    return hasMarker(error, unknownInterruptErrorMarker);
  }

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
    this.name = "UnknownInterruptError";
  }
}

const graphDefinitionErrorMarker = Symbol.for("weft.error.GraphDefinitionError");

/** A graph that cannot run as defined (unknown node, no entry edge). */
export class GraphDefinitionError extends WeftError {
  readonly [graphDefinitionErrorMarker] = true;

  static override isInstance(error: unknown): error is GraphDefinitionError {
    return hasMarker(error, graphDefinitionErrorMarker);
  }

  constructor(message: string) {
    super("graph_definition", message);
    this.name = "GraphDefinitionError";
  }
}

const nodeFailedErrorMarker = Symbol.for("weft.error.NodeFailedError");

/** A node threw. `cause` is what it threw. */
export class NodeFailedError extends WeftError {
  readonly [nodeFailedErrorMarker] = true;

  static override isInstance(error: unknown): error is NodeFailedError {
    return hasMarker(error, nodeFailedErrorMarker);
  }

  constructor(
    readonly node: string,
    cause: unknown,
  ) {
    super("node_failed", `Node "${node}" failed: ${errorMessage(cause)}`, { cause });
    this.name = "NodeFailedError";
  }
}

const leaseLostErrorMarker = Symbol.for("weft.error.LeaseLostError");

/** Another process took over the thread while this run was still going (its lease ran out). */
export class LeaseLostError extends WeftError {
  readonly [leaseLostErrorMarker] = true;

  static override isInstance(error: unknown): error is LeaseLostError {
    return hasMarker(error, leaseLostErrorMarker);
  }

  constructor(readonly threadId: string) {
    super("lease_lost", `Thread ${threadId} was taken over by another runner.`);
    this.name = "LeaseLostError";
  }
}
