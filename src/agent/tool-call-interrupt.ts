// What the interrupts a tool call asks (an approval, a tool's question) have in common: a kind, and
// the call and tool they ask for, by which protocol servers tie them to the call they show.

/** True when `value` is an interrupt value of `kind` that names a tool call and its tool. */
export function isToolCallInterrupt(value: unknown, kind: string): value is { kind: string; toolCallId: string; toolName: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { kind?: unknown }).kind === kind &&
    typeof (value as { toolCallId?: unknown }).toolCallId === "string" &&
    typeof (value as { toolName?: unknown }).toolName === "string"
  );
}
