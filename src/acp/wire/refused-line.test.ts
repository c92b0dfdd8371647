// refusedLineOutcome(): a line over the limits is answered on what its top level showed, as
// JSON-RPC says for a message the agent could not read.

import { describe, expect, it } from "vitest";

import { type AcceptedLine, LineScanner, type LineLimits, type RefusedLine } from "./line-limits.js";
import { refusedLineOutcome, unusableIdAnswer } from "./refused-line.js";

const limits: LineLimits = { maxBytes: 1000, maxDepth: 4 };
const deep = `${"[".repeat(6)}${"]".repeat(6)}`;

function outcome(text: string) {
  const [line] = new LineScanner(limits).push(new TextEncoder().encode(`${text}\n`));
  expect(line?.kind).toBe("refused");
  return refusedLineOutcome(line as RefusedLine, limits);
}

describe("refusedLineOutcome", () => {
  it("answers a request with -32600 and its own id, whatever the id's type", () => {
    for (const id of ['"abc"', "12", "-7", "null"]) {
      const { answer, replacement } = outcome(`{"jsonrpc":"2.0","id":${id},"method":"session/prompt","params":${deep}}`);
      expect(answer).toEqual({ jsonrpc: "2.0", id: JSON.parse(id), error: { code: -32600, message: "Invalid request: the request is nested deeper than 4 levels", data: { maxDepth: 4 } } });
      expect(replacement).toBeUndefined();
    }
    expect(outcome(`{"jsonrpc":"2.0","id":1,"method":"x","params":"${"y".repeat(1000)}"}`).answer).toMatchObject({ id: 1, error: { code: -32600, data: { maxBytes: 1000 } } });
  });

  it("answers with id null when the id cannot be used or the line is not a request", () => {
    for (const text of [
      `{"jsonrpc":"2.0","id":true,"method":"m","params":${deep}}`,
      `{"jsonrpc":"2.0","id":{"a":1},"method":"m","params":${deep}}`,
      `{"jsonrpc":"2.0","id":1e999,"method":"m","params":${deep}}`,
      `{"jsonrpc":"2.0","id":1.5,"method":"m","params":${deep}}`,
      `{"jsonrpc":"1.0","id":1,"method":"m","params":${deep}}`,
      `{"id":1,"method":"m","params":${deep}}`,
      `{"jsonrpc":"2.0","id":1,"method":5,"params":${deep}}`,
      `{"params":${deep}}`,
      deep,
    ]) {
      expect(outcome(text).answer, text).toMatchObject({ id: null, error: { code: -32600 } });
    }
    expect(outcome(`{"jsonrpc":"2.0","id":1,"method":"m","params":${deep}`).answer).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it("answers no notification, and turns an editor's answer into an error for the agent's request", () => {
    expect(outcome(`{"jsonrpc":"2.0","method":"session/cancel","params":${deep}}`)).toEqual({ description: expect.stringMatching(/notification session\/cancel/) });
    const answered = outcome(`{"jsonrpc":"2.0","id":4,"result":${deep}}`);
    expect(answered.answer).toBeUndefined();
    expect(answered.replacement).toMatchObject({ jsonrpc: "2.0", id: 4, error: { code: -32600 } });
    expect(outcome(`{"jsonrpc":"2.0","result":${deep}}`)).toEqual({ description: expect.any(String) });
  });

  it("answers a request whose id has a fraction with -32600 and id null, and leaves every other line to the SDK", () => {
    const accepted = (text: string) => {
      const [line] = new LineScanner(limits).push(new TextEncoder().encode(`${text}\n`));
      expect(line?.kind).toBe("accepted");
      return unusableIdAnswer(line as AcceptedLine);
    };
    expect(accepted('{"jsonrpc":"2.0","id":1.5,"method":"initialize","params":{}}')).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid request: an id must be a string, an integer or null", data: { id: 1.5 } },
    });
    expect(accepted('\u00a0\ufeff{"jsonrpc":"2.0","id":-0.5,"method":"m"}\u3000\r')).toMatchObject({ id: null, error: { code: -32600 } });
    for (const text of ['{"jsonrpc":"2.0","id":1.0,"method":"m"}', '{"jsonrpc":"2.0","id":"1.5","method":"m"}', '{"jsonrpc":"2.0","id":1.5,"result":{}}', '{"jsonrpc":"2.0","id":1.5,"method":"m"', '{"id":1.5,"method":"m"}']) {
      expect(accepted(text), text).toBeUndefined();
    }
  });
});
