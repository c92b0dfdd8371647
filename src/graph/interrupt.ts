// Interrupts: a node's question to the outside world. A run pauses with them; `resume` answers
// them by id. A question may carry a JSON Schema for its answer, so a protocol can ask it as a form.

import type { JsonObject, JsonValue } from "../types/json.js";

/** A question a paused run is waiting on. */
export interface Interrupt {
  /** Stable: the same question keeps its id when its node runs again. */
  id: string;
  /** What is asked, as JSON (for example an agent's tool approval request). */
  value: JsonValue;
  /** The node that asked. */
  node: string;
  /**
   * A JSON Schema for the answer (an object with a few plain fields), when the question has one: a
   * protocol that can show forms asks with it, and the answer is then a FormAnswer. Kept with the
   * interrupt, so a question still pending after a restart is asked the same way.
   */
  schema?: JsonObject | undefined;
}

/**
 * The answer to a question asked with a schema. `accept`: the person filled in the form, and
 * `content` holds its fields; `decline`: they said no; `cancel`: they dismissed it without choosing;
 * `reply`: no form could be shown, so the question was asked in words and `text` is what they
 * wrote. A graph can tell each apart and go on (or stop) as fits.
 */
export type FormAnswer =
  | { action: "accept"; content: JsonObject }
  | { action: "decline" }
  | { action: "cancel" }
  | { action: "reply"; text: string };
