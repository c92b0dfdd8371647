// Where a session's updates go: `session/update` notifications to the editor, queued without
// waiting on each one, and a write window that makes a turn wait now and then so the queue of
// unwritten notifications stays bounded. A replay's many updates can go out at once (sendAll).

import { methods, type SessionNotification, type SessionUpdate } from "@agentclientprotocol/sdk";

import type { Logger } from "../../types/logger.js";
import { messageLine } from "../wire/message-line.js";
import { type LineSink, OUTPUT_CHUNK_CHARS } from "../wire/line-writer.js";

/** How many notifications may wait in the write queue before a turn waits for them. */
export const WRITE_WINDOW = 256;

export class UpdateSink {
  private writes = 0;
  private lastWrite: Promise<void> = Promise.resolve();

  constructor(
    private readonly sessionId: string,
    /** Writes one notification; the SDK's `notify` for `session/update`. Writes keep their order. */
    private readonly notify: (notification: SessionNotification) => Promise<void>,
    private readonly logger: Logger,
    /** The connection's output, for `sendAll` to write lines to; without it, `sendAll` sends one by one. */
    private readonly lines?: LineSink,
  ) {}

  /**
   * Queues an update. Returns a promise only every WRITE_WINDOW updates, for the caller to wait on,
   * so the queue stays bounded without waiting on every chunk. An update that cannot be written
   * (the editor went away) is logged and dropped: the connection's end says why.
   */
  send(update: SessionUpdate): Promise<void> | undefined {
    const written = this.notify({ sessionId: this.sessionId, update }).catch((error: unknown) => this.lost(error));
    this.lastWrite = written;
    this.writes++;
    return this.writes % WRITE_WINDOW === 0 ? written : undefined;
  }

  /**
   * Sends updates one after another, as a replay does, and resolves when they are all written;
   * never rejects. The first goes through `notify`, so it and the rest come after every message the
   * SDK was asked to send before. With the connection's output to write to, the rest are then
   * written there as the SDK would write them (the same line of JSON each) in writes of up to 64 KiB,
   * as they are made: the SDK's work per notification (promises and a stream writer for each) was
   * most of a replay's time. An update that cannot be JSON is left out and logged, as the wire does.
   */
  sendAll(updates: Iterable<SessionUpdate>): Promise<void> {
    const all = this.lines ? this.writeAll(updates, this.lines) : this.sendEach(updates);
    this.lastWrite = all;
    return all;
  }

  /** Resolves when every update queued so far has been written (or failed to be). */
  flush(): Promise<void> {
    return this.lastWrite;
  }

  private async sendEach(updates: Iterable<SessionUpdate>): Promise<void> {
    // Waits for its own last write: by the time the loop ends, `lastWrite` may be this very call
    // (sendAll sets it), and waiting on that would never end.
    let last: Promise<void> = Promise.resolve();
    for (const update of updates) {
      const wait = this.send(update);
      last = this.lastWrite;
      await wait;
    }
    await last;
  }

  private async writeAll(updates: Iterable<SessionUpdate>, lines: LineSink): Promise<void> {
    const iterator = updates[Symbol.iterator]();
    const first = iterator.next();
    if (first.done) {
      return;
    }
    try {
      // Resolves once the SDK has handed it to the output: everything it queued before is out too.
      await this.notify({ sessionId: this.sessionId, update: first.value });
      // The line the SDK's notification makes, `{"jsonrpc":"2.0","method":…,"params":{"sessionId":…,"update":…}}`,
      // written around each update's own JSON; the parts of up to 64 KiB of lines are joined once.
      const head = `{"jsonrpc":"2.0","method":${JSON.stringify(methods.client.session.update)},"params":{"sessionId":${JSON.stringify(this.sessionId)},"update":`;
      let parts: string[] = [];
      let length = 0;
      for (let next = iterator.next(); !next.done; next = iterator.next()) {
        const json = this.json(next.value);
        if (json === undefined) {
          continue;
        }
        parts.push(head, json, "}}\n");
        length += head.length + json.length + 3;
        if (length >= OUTPUT_CHUNK_CHARS) {
          const wait = lines(parts.join(""));
          parts = [];
          length = 0;
          if (wait) {
            await wait;
          }
        }
      }
      if (parts.length > 0) {
        await lines(parts.join(""));
      }
    } catch (error) {
      this.lost(error);
    }
  }

  /** One update's JSON; an update that cannot be JSON gives none, and a note in the log, as the wire would. */
  private json(update: SessionUpdate): string | undefined {
    try {
      const json = JSON.stringify(update);
      if (typeof json === "string") {
        return json;
      }
    } catch {
      // messageLine below says why.
    }
    const written = messageLine({ jsonrpc: "2.0", method: methods.client.session.update, params: { sessionId: this.sessionId, update } });
    if (written.note) {
      this.logger[written.note.level](written.note.message);
    }
    return undefined;
  }

  private lost(error: unknown): void {
    this.logger.debug("A session update could not be written", { sessionId: this.sessionId, error: String(error) });
  }
}
