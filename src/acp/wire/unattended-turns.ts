// What weft adds to ACP, in `_meta`, for turns nobody watches (a script's `weft chat -p`): the
// prompt says it is one, a permission answer says a policy gave it, and the prompt's answer says
// when the turn ended on a question the next prompt answers. Any other agent or client ignores
// these keys, as ACP asks of keys it does not know.

/**
 * On `session/prompt`'s `_meta`, `true`: nobody is at the client to answer for this turn. weft's
 * agent then applies no standing grant (every approval is asked of the client, whose policy
 * answers it) and answers the prompt with an error when the run fails, whatever `failures` says.
 * It holds for that turn only; the session's other turns are as they were.
 */
export const UNATTENDED_META = "weftjs/unattended";

/**
 * On a `session/request_permission` answer's `_meta`, a string: the client's policy answered,
 * not a person, and this says which (`weft chat --approve reads: reading and searching only`).
 * A rejection then reaches the model as the policy's, with these words.
 */
export const POLICY_META = "weftjs/policy";

/**
 * On `session/prompt`'s answer's `_meta`, `{ questions: string[] }`: the turn ended (end_turn)
 * asking these questions as the agent's message, and waits: the session's next prompt answers them.
 */
export const WAITING_META = "weftjs/waiting";

/** Whether a prompt's `_meta` marks its turn as unattended. */
export function isUnattended(meta: unknown): boolean {
  return metaValue(meta, UNATTENDED_META) === true;
}

/** The policy that gave a permission answer, from the answer's `_meta`; undefined when a person gave it. */
export function answeringPolicy(meta: unknown): string | undefined {
  const policy = metaValue(meta, POLICY_META);
  return typeof policy === "string" && policy.trim() !== "" ? policy.slice(0, 500) : undefined;
}

/** The questions a prompt's answer says its turn waits on, from its `_meta`; undefined when it waits on none. */
export function waitingQuestions(meta: unknown): string[] | undefined {
  const waiting = metaValue(meta, WAITING_META) as { questions?: unknown } | undefined;
  const questions = waiting?.questions;
  return Array.isArray(questions) && questions.length > 0 ? questions.map(String) : undefined;
}

function metaValue(meta: unknown, key: string): unknown {
  return typeof meta === "object" && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>)[key] : undefined;
}
