// The kit's own JSON Schema validator judges ACP messages as ajv (the validator weft's test
// suite uses) does: the same verdict on thousands of messages, good ones and ones made wrong.

import { createRequire } from "node:module";

import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";

import { hostileLines, seededRandom } from "../../../test/support/hostile-lines.js";
import { issuesText, JsonSchema } from "./json-schema.js";

const require = createRequire(import.meta.url);
const document = require("@agentclientprotocol/sdk/schema/v1/schema.json") as { $defs: Record<string, unknown> };
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ ...document, $id: "acp" });
const ours = new JsonSchema(document);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const content = { type: "text", text: "hello" };
/** Messages an agent writes, one of each kind the kit sees most. */
const GOOD: Array<{ definition: string; value: Json }> = [
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "user_message_chunk", content: { type: "resource_link", uri: "file:///a", name: "a" } } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "t", title: "Read", kind: "read", status: "pending", locations: [{ path: "/a", line: 2 }], rawInput: { path: "a" } } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed", content: [{ type: "diff", path: "/a", oldText: null, newText: "x" }, { type: "content", content }] } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "plan", entries: [{ content: "a", priority: "high", status: "pending" }] } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "available_commands_update", availableCommands: [{ name: "c", description: "d", input: { hint: "h" } }] } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "usage_update", used: 1, size: 10, cost: { amount: 0.1, currency: "USD" } } } },
  { definition: "SessionNotification", value: { sessionId: "s", update: { sessionUpdate: "config_option_update", configOptions: [{ id: "m", name: "Model", type: "select", currentValue: "a", options: [{ value: "a", name: "A" }] }] } } },
  { definition: "RequestPermissionRequest", value: { sessionId: "s", toolCall: { toolCallId: "t", title: "Write" }, options: [{ optionId: "allow_once", name: "Allow", kind: "allow_once" }] } },
  { definition: "InitializeResponse", value: { protocolVersion: 1, agentCapabilities: { loadSession: true, promptCapabilities: { image: true }, sessionCapabilities: { list: {}, close: {} } }, authMethods: [], agentInfo: { name: "a", version: "1" } } },
  { definition: "NewSessionResponse", value: { sessionId: "s", modes: { currentModeId: "ask", availableModes: [{ id: "ask", name: "Ask" }] } } },
  { definition: "PromptResponse", value: { stopReason: "end_turn" } },
  { definition: "ListSessionsResponse", value: { sessions: [{ sessionId: "s", cwd: "/p", title: "t", updatedAt: "2026-01-01T00:00:00Z" }] } },
  { definition: "Error", value: { code: -32602, message: "Invalid params", data: { x: 1 } } },
];

const ODD: Json[] = [null, true, 0, -1, 1.5, 70000, "", "text", "end_turn", "pending", "/abs", [], [null], {}, { type: "text" }, { type: "text", text: 5 }, { sessionUpdate: "plan" }];

/** Replaces, adds or deletes one field somewhere inside `value`. */
function mutate(random: () => number, value: Json): Json {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  if (value === null || typeof value !== "object" || random() < 0.1) {
    return pick(ODD);
  }
  const copy: Json = Array.isArray(value) ? [...value] : { ...value };
  const keys = Object.keys(copy);
  if (keys.length === 0 || random() < 0.15) {
    (copy as Record<string, Json>)[pick(["extra", "_meta", "status", "type", "0"])] = pick(ODD);
    return copy;
  }
  const key = pick(keys);
  if (random() < 0.25 && !Array.isArray(copy)) {
    delete copy[key];
    return copy;
  }
  (copy as Record<string, Json>)[key] = mutate(random, (copy as Record<string, Json>)[key] as Json);
  return copy;
}

const compiled = new Map<string, ValidateFunction>();
function ajvValid(definition: string | undefined, value: unknown): boolean {
  const key = definition ?? "";
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(definition === undefined ? { $ref: "acp" } : { $ref: `acp#/$defs/${definition}` });
    compiled.set(key, validate);
  }
  return validate(value) === true;
}

describe("the kit's JSON Schema validator", () => {
  it("accepts the good messages and explains a bad one", () => {
    for (const { definition, value } of GOOD) {
      expect(ours.problems(value, definition), `${definition} ${JSON.stringify(value)}`).toEqual([]);
    }
    const bad = ours.problems({ sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: 5 } } }, "SessionNotification");
    expect(issuesText(bad)).toContain("/update/content/text must be string");
    expect(ours.problems({ sessionId: "s", update: { sessionUpdate: "tool_call_update", toolCallId: "t", status: "done" } }, "SessionNotification")).not.toEqual([]);
    // The branch of a tagged union the value names is the one judged.
    expect(issuesText(ours.problems({ sessionId: "s", update: { sessionUpdate: "session_info_update", title: 5 } }, "SessionNotification"))).toBe("/update/title must be string or null");
    expect(issuesText(ours.problems({ sessionId: "s", update: { sessionUpdate: "no_such_update" } }, "SessionNotification"))).toContain('/update/sessionUpdate must be one of "user_message_chunk"');
  });

  it("agrees with ajv on 4,000 messages made wrong one field at a time", () => {
    const random = seededRandom(17);
    let invalid = 0;
    for (let round = 0; round < 4_000; round++) {
      const { definition, value } = GOOD[round % GOOD.length] as { definition: string; value: Json };
      const changed = mutate(random, value);
      const expected = ajvValid(definition, changed);
      invalid += expected ? 0 : 1;
      expect(ours.problems(changed, definition).length === 0, `${definition} ${JSON.stringify(changed)}`).toBe(expected);
    }
    // The test means something only if many of them are wrong.
    expect(invalid).toBeGreaterThan(1_000);
  });

  it("agrees with ajv on whole JSON-RPC messages, hostile ones included", () => {
    let compared = 0;
    for (const line of hostileLines({ seed: 17, count: 3_000, cwd: "/tmp/project" })) {
      let message: unknown;
      try {
        message = JSON.parse(line.text);
      } catch {
        continue;
      }
      compared++;
      expect(ours.problems(message).length === 0, line.text.slice(0, 300)).toBe(ajvValid(undefined, message));
    }
    expect(compared).toBeGreaterThan(1_000);
  });
});
