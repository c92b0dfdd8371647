// Where a session's updates go: `session/update` notifications to the editor, queued without
// waiting on each one, and a write window that makes a turn wait now and then so the queue of
// unwritten notifications stays bounded.

import type { SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk";

import type { Logger } from "../../types/logger.js";

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
  ) {}

  /**
   * Queues an update. Returns a promise only every WRITE_WINDOW updates, for the caller to wait on,
   * so the queue stays bounded without waiting on every chunk. An update that cannot be written
   * (the editor went away) is logged and dropped: the connection's end says why.
   */
  send(update: SessionUpdate): Promise<void> | undefined {
    const written = this.notify({ sessionId: this.sessionId, update }).catch((error: unknown) => {
      this.logger.debug("A session update could not be written", { sessionId: this.sessionId, error: String(error) });
    });
    this.lastWrite = written;
    this.writes++;
    return this.writes % WRITE_WINDOW === 0 ? written : undefined;
  }

  /** Resolves when every update queued so far has been written (or failed to be). */
  flush(): Promise<void> {
    return this.lastWrite;
  }
}
