// Updates about a session itself (its commands, usage and title), which may go out between turns,
// held back until the editor knows the session: Zed drops updates of a session it does not know
// yet, and it knows a new one only once the session/new answer has arrived (and a loaded or
// resumed one, we take it, once that answer has, as ACP's own advice says).

import type { SessionUpdate } from "@agentclientprotocol/sdk";

import type { UpdateSink } from "./update-sink.js";

export class HeldUpdates {
  /** Updates wait on this: the answer that opened the session being written. */
  private ready: Promise<void> = Promise.resolve();
  /** True once the editor knows the session: updates then go out at once, in the order of the turn's own. */
  private open = true;
  /** How many updates wait in the queue; a new one goes behind them. */
  private waiting = 0;
  /** The last update queued, so updates keep their order whatever they wait on. */
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly updates: UpdateSink) {}

  /** Holds back the updates sent from now on until `written` settles. */
  holdUntil(written: Promise<void>): void {
    this.open = false;
    this.ready = written.then(() => {
      this.open = true;
    });
  }

  /** Sends an update now when the editor knows the session, else queues it to go out in order once it does. */
  send(update: SessionUpdate): void {
    if (this.open && this.waiting === 0) {
      void this.updates.send(update);
      return;
    }
    this.waiting++;
    const ready = this.ready;
    this.last = this.last.then(async () => {
      await ready;
      this.waiting--;
      void this.updates.send(update);
    });
  }

  /** Resolves when every update sent so far has been written (or failed to be). */
  async flush(): Promise<void> {
    await this.last;
    await this.updates.flush();
  }
}
