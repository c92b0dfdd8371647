// How many bytes of request bodies the server holds at once, per principal and in all: a body is
// read into memory whole before its JSON-RPC is parsed, so without a bound a few callers with
// valid tokens could make the server hold gigabytes.

export interface BodyBudgetLimits {
  /** Bytes of bodies one principal's requests may hold at once. Default 32 MiB. */
  perPrincipalBytes?: number | undefined;
  /** Bytes of bodies every request together may hold at once. Default 128 MiB. */
  totalBytes?: number | undefined;
}

export class BodyBudget {
  private readonly perPrincipal: number;
  private readonly total: number;
  private held = 0;
  private readonly heldBy = new Map<string, number>();

  constructor(limits: BodyBudgetLimits = {}) {
    this.perPrincipal = limits.perPrincipalBytes ?? 32 * 1024 * 1024;
    this.total = limits.totalBytes ?? 128 * 1024 * 1024;
  }

  /**
   * Sets `bytes` aside for one body of `principal`'s, or returns undefined when that would pass a
   * limit. A body larger than either limit on its own is still let in when nothing else is held,
   * so that the largest request the server takes can always be sent. The release it returns gives
   * them back, once however often it is called.
   */
  reserve(principal: string, bytes: number): (() => void) | undefined {
    const mine = this.heldBy.get(principal) ?? 0;
    if ((mine > 0 && mine + bytes > this.perPrincipal) || (this.held > 0 && this.held + bytes > this.total)) {
      return undefined;
    }
    this.held += bytes;
    this.heldBy.set(principal, mine + bytes);
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      this.held -= bytes;
      const left = (this.heldBy.get(principal) ?? 0) - bytes;
      if (left > 0) {
        this.heldBy.set(principal, left);
      } else {
        this.heldBy.delete(principal);
      }
    };
  }
}
