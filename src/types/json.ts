// JSON values: what state, interrupts, store items and checkpoints are made of, so that every
// store driver can keep them and nothing needs class revival on the way back.

/** A value that survives `JSON.stringify` and `JSON.parse` unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };
