// The order of a session's turns: one runs at a time, in the order its prompts came. A cancel
// stops the turn that runs and withdraws the prompts waiting behind it.

export class TurnQueue {
  /** The turn running now, and the prompts waiting for it. */
  private current: AbortController | undefined;
  private readonly waiting = new Set<AbortController>();
  private last: Promise<void> = Promise.resolve();

  /** True while a turn runs or a prompt waits for one. */
  get busy(): boolean {
    return this.current !== undefined || this.waiting.size > 0;
  }

  /**
   * Runs `work` once every turn queued before it has ended. Its signal aborts on `cancel()` or when
   * `requestSignal` aborts (the editor withdrew the prompt). Cancelled before its turn came, the
   * work never runs and this resolves `withdrawn`. The next turn starts when this one settles,
   * whether it resolved or threw.
   */
  async run<T>(requestSignal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T | "withdrawn"> {
    const controller = new AbortController();
    const onRequestCancel = () => controller.abort();
    requestSignal?.addEventListener("abort", onRequestCancel, { once: true });
    this.waiting.add(controller);
    const previous = this.last;
    let release!: () => void;
    this.last = new Promise((resolve) => {
      release = resolve;
    });
    try {
      await previous;
      this.waiting.delete(controller);
      if (controller.signal.aborted) {
        return "withdrawn";
      }
      this.current = controller;
      return await work(controller.signal);
    } finally {
      this.waiting.delete(controller);
      this.current = undefined;
      requestSignal?.removeEventListener("abort", onRequestCancel);
      release();
    }
  }

  /** Cancels the running turn and withdraws the prompts waiting behind it. */
  cancel(): void {
    this.current?.abort();
    for (const waiting of this.waiting) {
      waiting.abort();
    }
  }
}
