// How long a provider asked us to wait before trying again, from the headers of its error answer
// (a 429 or a 5xx): `retry-after-ms` (OpenAI's, in milliseconds) or the standard `retry-after`
// (seconds, or an HTTP date).

/**
 * The wait in milliseconds the headers ask for, or `undefined` when they ask for none or say it in
 * a form we cannot read. A date in the past asks for no wait (0). `now` is the current time in
 * milliseconds since the epoch, for reading a date.
 */
export function retryAfterMs(headers: Readonly<Record<string, string>> | undefined, now: number): number | undefined {
  if (!headers) {
    return undefined;
  }
  const milliseconds = header(headers, "retry-after-ms");
  if (milliseconds !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(milliseconds)) {
    return Math.ceil(Number(milliseconds));
  }
  const value = header(headers, "retry-after")?.trim();
  if (value === undefined || value === "") {
    return undefined;
  }
  if (/^\d+(\.\d+)?$/.test(value)) {
    return Math.ceil(Number(value) * 1000);
  }
  // An HTTP date starts with the day's name ("Fri, 01 May 2026 12:00:03 GMT"); Date.parse alone
  // would read "-3" as a year.
  const date = /^[A-Za-z]{3}/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A header by name, whatever its case (the AI SDK gives them lower-cased, a custom fetch may not). */
function header(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const direct = headers[name];
  if (direct !== undefined) {
    return direct;
  }
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) {
      return value;
    }
  }
  return undefined;
}
