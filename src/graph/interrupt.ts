// Interrupts: a node's question to the outside world. A run pauses with them; `resume` answers
// them by id.

import type { JsonValue } from "../types/json.js";

/** A question a paused run is waiting on. */
export interface Interrupt {
  /** Stable: the same question keeps its id when its node runs again. */
  id: string;
  /** What is asked, as JSON (for example an agent's tool approval request). */
  value: JsonValue;
  /** The node that asked. */
  node: string;
}
