// A node's slow work in graph tests: a wait that ends early, with an error, when the run is cancelled.

/** Resolves after `milliseconds`; rejects with Error("aborted") at once when `signal` aborts first. */
export function abortableSleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, milliseconds);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new Error("aborted"));
    });
  });
}
