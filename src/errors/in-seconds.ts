// Durations in error messages, as people read them.

/** Milliseconds as seconds: "300 s", "10 s", "1.5 s", "0.3 s". */
export function inSeconds(milliseconds: number): string {
  return `${Number((milliseconds / 1000).toFixed(milliseconds < 10_000 ? 1 : 0))} s`;
}
