// What the person sees of a graph's tool call when asked about it: a title with the arguments,
// and the arguments whole below the reviewer's own words.

import { describe, expect, it } from "vitest";

import { callDisplay, callTitle } from "./call-display.js";

const textOf = (display: ReturnType<typeof callDisplay>) => display.map((item) => (item.type === "text" ? item.text : "")).join("");

describe("callTitle", () => {
  it("names the tool with each argument as JSON", () => {
    expect(callTitle("write_file", { path: "a.txt", content: "hi", mode: 420 })).toBe('write_file(path: "a.txt", content: "hi", mode: 420)');
  });

  it("shortens long values and long titles, and keeps a call with no arguments short", () => {
    const title = callTitle("write_file", { path: "a.txt", content: "x".repeat(500) });
    expect(title).toBe(`write_file(path: "a.txt", content: "${"x".repeat(38)}…)`);
    expect(callTitle("many", Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`k${index}`, index])))).toHaveLength(160);
    expect(callTitle("now", {})).toBe("now()");
  });
});

describe("callDisplay", () => {
  it("shows the arguments whole, as JSON", () => {
    const content = "x".repeat(500);
    expect(textOf(callDisplay({ path: "a.txt", content }))).toBe(`Arguments:\n\`\`\`json\n${JSON.stringify({ path: "a.txt", content }, null, 2)}\n\`\`\``);
  });

  it("keeps the reviewer's own description, but not the tool and arguments LangChain's default repeats", () => {
    const args = { path: "a.txt" };
    const repeated = `\n\nTool: write_file\nArgs: ${JSON.stringify(args, null, 2)}`;
    expect(textOf(callDisplay(args, `Tool execution requires approval${repeated}`))).toMatch(/^Arguments:/);
    expect(textOf(callDisplay(args, `Writes need a second look${repeated}`))).toMatch(/^Writes need a second look\n\nArguments:/);
    expect(textOf(callDisplay(args, "Check the path first."))).toMatch(/^Check the path first\.\n\nArguments:/);
  });
});
