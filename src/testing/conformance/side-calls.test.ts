// Telling an agent's side calls from its turns, on requests shaped as Claude Code, Codex and weft
// send them: a side call must never take a scenario's reply.

import { describe, expect, it } from "vitest";

import { type ModelCall, sideCallReason } from "./conformance-model.js";

const exec = { name: "exec", parameters: { type: "object" } };

function call(fields: Partial<ModelCall>): ModelCall {
  return { prompt: "cc1xabc: read the file", toolResults: 0, tools: [exec], raw: "", system: "You are a coding agent.", body: {}, ...fields };
}

describe("sideCallReason", () => {
  it("finds Claude Code's title call: a schema asking for a title, and no tools", () => {
    const claude = call({ tools: [], system: "You are naming a coding session. Reply with JSON.", body: { max_tokens: 32000, output_config: { format: { type: "json_schema", schema: { properties: { title: { type: "string" } } } } } } });
    expect(sideCallReason(claude, [])).toBe("its output schema asks for title");
  });

  it("finds Codex's title call, though it offers tools, by its schema or by its words", () => {
    const prompt = "Your task is to generate a very short title for a conversation based on the user's first message: cc1xabc: read the file";
    const codex = call({ prompt, body: { text: { format: { type: "json_schema", name: "codex_output_schema", schema: { properties: { title: {} } } } } } });
    expect(sideCallReason(codex, [])).toBe("its output schema asks for title");
    expect(sideCallReason(call({ prompt }), [])).toBe('it asks for a title or a summary ("generate a very short title")');
  });

  it("finds a call that allows only a few tokens, and one without the tools its turn offered", () => {
    expect(sideCallReason(call({ body: { max_tokens: 20 } }), [])).toBe("it allows only 20 tokens");
    const turn = call({});
    expect(sideCallReason(call({ tools: [] }), [turn])).toBe("it offers no tools where the turn with its prompt offered some");
  });

  it("takes a turn for a turn: tools or not, a long system text that mentions summaries, a large max_tokens", () => {
    const long = `You are a coding agent. ${"Work carefully. ".repeat(30)}When you are done, write a short summary of what you changed.`;
    expect(sideCallReason(call({ system: long, body: { max_tokens: 4096, stream: true } }), [])).toBeUndefined();
    expect(sideCallReason(call({ tools: [] }), [])).toBeUndefined();
    expect(sideCallReason(call({ tools: [], toolResults: 1 }), [call({})])).toBeUndefined();
  });
});
