// A limit on the requests one remote connection has the agent working on at once, so that a client
// that sends thousands of requests cannot fill the store's queue or the event loop ahead of
// everyone else's: the rest wait in that connection's own queue, and each is let in on a later turn
// of the event loop, so other connections' messages are read in between.

import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";

export interface RequestsInFlightLimits {
  /** Requests the agent may be working on at once for one connection. Default 32. */
  maxInFlight?: number | undefined;
  /** Requests that may wait behind those; one more is answered with an error. Default 4096. */
  maxQueued?: number | undefined;
}

/** How long one connection's messages are read before the event loop is given a turn, in ms. */
const READ_SLICE_MS = 5;

/** The JSON-RPC code of the answer to a request over the queue's limit (the SDK's "server error" range). */
export const TOO_MANY_REQUESTS_CODE = -32000;

/**
 * Wraps the agent's side of one connection. Requests beyond `maxInFlight` wait, in order, until an
 * earlier one is answered; responses (to the agent's own requests, such as a permission it asked)
 * and notifications (a cancel) are never held, so a full queue cannot stop the answer a running
 * request waits for. The source is always read as fast as it delivers, so the transport's own
 * back-pressure and limits see no change.
 */
export function limitRequestsInFlight(stream: Stream, limits: RequestsInFlightLimits = {}): Stream {
  const maxInFlight = limits.maxInFlight ?? 32;
  const maxQueued = limits.maxQueued ?? 4096;
  const running = new Set<string>();
  const queued: AnyMessage[] = [];
  let deliver!: (message: AnyMessage) => void;
  let closeInbound!: () => void;
  let failInbound!: (error: unknown) => void;
  let letting = false;

  const writer = stream.writable.getWriter();
  const write = (message: AnyMessage) => writer.write(message);

  /** Lets queued requests in, as many as there is room for, on the next turn of the event loop. */
  const letIn = () => {
    if (letting || queued.length === 0 || running.size >= maxInFlight) {
      return;
    }
    letting = true;
    setImmediate(() => {
      letting = false;
      while (queued.length > 0 && running.size < maxInFlight) {
        const next = queued.shift() as AnyMessage;
        running.add(idKey(next));
        deliver(next);
      }
    });
  };

  const readable = new ReadableStream<AnyMessage>({
    start: (controller) => {
      deliver = (message) => controller.enqueue(message);
      closeInbound = () => controller.close();
      failInbound = (error) => controller.error(error);
      void (async () => {
        const reader = stream.readable.getReader();
        let sliceStart = performance.now();
        try {
          for (;;) {
            // The transport hands on all it has received without a pause, and handling thousands
            // of messages at once would hold the event loop for as long: past a slice of time the
            // rest waits for the loop's next turn, so other connections are served in between.
            if (performance.now() - sliceStart > READ_SLICE_MS) {
              await new Promise((resolve) => setImmediate(resolve));
              sliceStart = performance.now();
            }
            const { done, value } = await reader.read();
            if (done) {
              break;
            }
            if (!isRequest(value)) {
              deliver(value);
            } else if (running.size < maxInFlight && queued.length === 0) {
              running.add(idKey(value));
              deliver(value);
            } else if (queued.length < maxQueued) {
              queued.push(value);
              letIn();
            } else {
              void write({ jsonrpc: "2.0", id: value.id, error: { code: TOO_MANY_REQUESTS_CODE, message: `Too many requests waiting on this connection (${maxQueued}); send fewer at once.` } }).catch(() => undefined);
            }
          }
          queued.length = 0;
          closeInbound();
        } catch (error) {
          failInbound(error);
        } finally {
          reader.releaseLock();
        }
      })();
    },
  });

  const writable = new WritableStream<AnyMessage>({
    write: async (message) => {
      if (isResponse(message) && running.delete(idKey(message))) {
        letIn();
      }
      await write(message);
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  return { readable, writable };
}

function isRequest(message: AnyMessage): message is AnyMessage & { id: string | number; method: string } {
  return "method" in message && "id" in message && message.id !== null && message.id !== undefined;
}

function isResponse(message: AnyMessage): boolean {
  return !("method" in message) && "id" in message;
}

/** A request's id as a key: `1` and `"1"` are different ids. */
function idKey(message: AnyMessage): string {
  const id = (message as { id?: unknown }).id;
  return `${typeof id}:${String(id)}`;
}
