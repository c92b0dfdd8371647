// Reading text that may not be JSON, as model output, a person's answer or a refused line can be.

/** The value of `text` as JSON, or `otherwise` (undefined unless given) when it is not JSON. */
export function parseJson(text: string, otherwise?: unknown): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return otherwise;
  }
}
