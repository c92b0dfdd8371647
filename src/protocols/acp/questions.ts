// Interrupts that are not tool approvals are questions for the person. They are asked as the
// agent's message, and the next prompt answers them.

import type { ProtocolInterrupt } from "../shared.js";

/** The words to show for a question, whatever shape its value has. */
export function questionText(interrupt: ProtocolInterrupt): string {
  const value = interrupt.value;
  if (typeof value === "string") {
    return value;
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const key of ["question", "message", "text", "prompt"]) {
      const candidate = value[key];
      if (typeof candidate === "string") {
        return candidate;
      }
      if (candidate !== undefined && key === "question") {
        return JSON.stringify(candidate, null, 2);
      }
    }
  }
  return JSON.stringify(value, null, 2);
}
