// Waiting for a condition on something that changes (an agent's updates, a terminal's screen): the
// condition is checked now and again at every change, until it holds or the time is up.

export class ChangeWaiters {
  private readonly checks = new Set<() => void>();

  /** Checks every waiting condition again: call it after each change. */
  changed(): void {
    for (const check of [...this.checks]) {
      check();
    }
  }

  /** Resolves once `condition` holds; rejects with an Error of `timeoutMessage()` after `timeoutMs`. */
  until(condition: () => boolean, timeoutMs: number, timeoutMessage: () => string): Promise<void> {
    if (condition()) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.checks.delete(check);
        reject(new Error(timeoutMessage()));
      }, timeoutMs);
      const check = () => {
        if (condition()) {
          clearTimeout(timer);
          this.checks.delete(check);
          resolve();
        }
      };
      this.checks.add(check);
    });
  }
}
