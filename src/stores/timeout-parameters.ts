// Timeouts given in a store's URL, such as `postgres://…?query_timeout_ms=3000`: read and removed
// before the driver sees the URL.

import { WeftError } from "../errors/weft-error.js";

/**
 * Removes the named parameters from `url` and returns their values as milliseconds; a parameter
 * that is absent is left out. A value that is not a positive whole number is an error.
 */
export function takeTimeoutParameters<Name extends string>(url: string, names: readonly Name[]): { url: string; timeouts: Partial<Record<Name, number>> } {
  if (!names.some((name) => url.includes(name))) {
    return { url, timeouts: {} };
  }
  const parsed = new URL(url);
  const timeouts: Partial<Record<Name, number>> = {};
  for (const name of names) {
    const value = parsed.searchParams.get(name);
    if (value === null) {
      continue;
    }
    if (!/^[1-9][0-9]*$/.test(value)) {
      throw new WeftError("invalid_option", `The store URL's ${name} must be a positive whole number of milliseconds, not ${JSON.stringify(value)}.`);
    }
    timeouts[name] = Number(value);
    parsed.searchParams.delete(name);
  }
  return { url: parsed.toString(), timeouts };
}

/** `value`, checked to be a positive number of milliseconds. */
export function checkTimeout(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new WeftError("invalid_option", `${name} must be a positive number of milliseconds, not ${String(value)}.`);
  }
  return value;
}
