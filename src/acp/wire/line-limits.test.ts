// LineScanner: lines split at newlines, held to a length and a nesting limit before any parsing,
// with what a refused line's top level says kept for its answer.

import { describe, expect, it } from "vitest";

import { LineScanner, type RefusedLine, type ScannedLine } from "./line-limits.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function scanChunks(chunks: string[], limits?: { maxBytes?: number; maxDepth?: number }): ScannedLine[] {
  const scanner = new LineScanner(limits);
  const lines = chunks.flatMap((chunk) => scanner.push(encoder.encode(chunk)));
  const last = scanner.end();
  return last ? [...lines, last] : lines;
}

const texts = (lines: ScannedLine[]) => lines.map((line) => (line.kind === "accepted" ? decoder.decode(line.bytes) : `refused ${line.reason}`));

function refused(text: string, limits: { maxBytes?: number; maxDepth?: number } = { maxDepth: 3 }): RefusedLine {
  const [line] = scanChunks([`${text}\n`], limits);
  if (line?.kind !== "refused") {
    throw new Error(`${text} was not refused`);
  }
  return line;
}

const deep = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("LineScanner", () => {
  it("passes lines within the limits on unchanged, each with its newline, however the chunks fall", () => {
    const input = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"a":[{"b":"x\\"]}\\n"}]}}\n\n{"jsonrpc":"2.0","method":"n"}\r\nlast`;
    const expected = [`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"a":[{"b":"x\\"]}\\n"}]}}\n`, "\n", `{"jsonrpc":"2.0","method":"n"}\r\n`, "last"];
    expect(texts(scanChunks([input]))).toEqual(expected);
    for (let split = 1; split < input.length; split += 1) {
      expect(texts(scanChunks([input.slice(0, split), input.slice(split)]))).toEqual(expected);
    }
    expect(texts(scanChunks([...input]))).toEqual(expected);
  });

  it("counts nesting outside strings only, and refuses a line nested deeper than the limit", () => {
    expect(texts(scanChunks([`${deep(3)}\n`, `{"a":"[[[[[[[["}\n`], { maxDepth: 3 }))).toEqual([`${deep(3)}\n`, `{"a":"[[[[[[[["}\n`]);
    expect(texts(scanChunks([`${deep(4)}\n`, `{"a":[[[1]]]}\n`, `{"ok":1}\n`], { maxDepth: 3 }))).toEqual(["refused too_deep", "refused too_deep", `{"ok":1}\n`]);
  });

  it("refuses a line longer than the limit and reads on at the next newline, whatever the chunks", () => {
    const input = `{"jsonrpc":"2.0","id":"x","method":"m","params":"${"y".repeat(100)}"}\n{"ok":1}\n`;
    expect(texts(scanChunks([input], { maxBytes: 50 }))).toEqual(["refused too_long", `{"ok":1}\n`]);
    expect(texts(scanChunks([...input], { maxBytes: 50 }))).toEqual(["refused too_long", `{"ok":1}\n`]);
    expect(texts(scanChunks(["x".repeat(51)], { maxBytes: 50 }))).toEqual(["refused too_long"]);
    expect(texts(scanChunks(["x".repeat(50)], { maxBytes: 50 }))).toEqual(["x".repeat(50)]);
  });

  it("keeps the top-level jsonrpc, id and method of a refused line, wherever they are", () => {
    const line = refused(`{"params":${deep(5)},"jsonrpc":"2.0","method":"session/prompt","id":"a\\"b"}`);
    expect(line).toMatchObject({ reason: "too_deep", shape: "object" });
    expect(Object.fromEntries(line.members)).toEqual({ params: undefined, jsonrpc: '"2.0"', method: '"session/prompt"', id: '"a\\"b"' });
    expect(refused(`{ "id" : -12.5e3 , "x":${deep(4)}}`).members.get("id")).toBe("-12.5e3");
    expect(refused(`{"id":null,"x":${deep(4)}}`).members.get("id")).toBe("null");
    expect(refused(`{"id":1,"x":${deep(4)},"id":2}`).members.get("id")).toBe("2");
    expect(refused(`{"\\u0069d":7,"x":${deep(4)}}`).members.get("id")).toBe("7");
    expect(refused(`{"id":{"nested":1},"x":${deep(4)}}`).members.get("id")).toBeNull();
    expect(refused(`{"id":"${"z".repeat(8000)}","x":${deep(4)}}`).members.get("id")).toBe(`"${"z".repeat(8000)}"`);
    expect(refused(`{"id":"${"z".repeat(70_000)}","x":${deep(4)}}`).members.get("id")).toBeNull();
    expect(refused(`{"x":{"id":1,"y":${deep(4)}}}`).members.has("id")).toBe(false);
    expect(refused(`{"result":[1],"x":${deep(4)}}`).members.get("result")).toBeNull();
    const long = refused(`{"id":3,"params":"${"q".repeat(1000)}"}`, { maxBytes: 100 });
    expect(long).toMatchObject({ reason: "too_long", shape: "object" });
    expect(long.members.get("id")).toBe("3");
  });

  it("tells a refused object from a blank line, an array or scalar, and what cannot be JSON", () => {
    for (const space of ["\uFEFF", "\u00A0", "\u3000", "\u2028", "\f"]) {
      expect(refused(`${space} {"id":1,"x":${deep(4)}}${space}`).shape, JSON.stringify(space)).toBe("object");
    }
    expect(refused(`é{"id":1,"x":${deep(4)}}`).shape).toBe("malformed");
    expect(refused(`{"id":1,"x":${deep(4)}}\u00e9`).shape).toBe("malformed");
    expect(refused(" ".repeat(200), { maxBytes: 100 }).shape).toBe("blank");
    expect(refused(deep(4)).shape).toBe("other");
    expect(refused(`"${"s".repeat(200)}"`, { maxBytes: 100 }).shape).toBe("other");
    for (const text of [
      `{"id":1,"x":${deep(4)}`,
      `{"id":1,"x":${deep(4)}} x`,
      `{"id":1,"x":${deep(4)}}{}`,
      `{"id":1,,"x":${deep(4)}}`,
      `{"id" 1,"x":${deep(4)}}`,
      `{id:1,"x":${deep(4)}}`,
      `{"id":1,"x":${deep(4)},}`,
      `{"id":1,"x":${deep(4)},"y":"open}`,
      `]${deep(4)}`,
    ]) {
      expect(refused(text).shape, text).toBe("malformed");
    }
  });

  it("refuses limits that are not positive integers", () => {
    expect(() => new LineScanner({ maxDepth: 0 })).toThrow(RangeError);
    expect(() => new LineScanner({ maxBytes: 1.5 })).toThrow(RangeError);
  });
});
