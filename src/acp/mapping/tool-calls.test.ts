// How a tool call looks in the editor: the kind guessed from its name, its title, the files it
// touches, its content (bounded), and ids kept unique within a session.

import { describe, expect, it } from "vitest";

import { boundText, guessToolKind, outputText, ToolCallIds, toolContent, toolLocations, toolTitle, wireLocations } from "./tool-calls.js";

describe("guessToolKind", () => {
  it("reads the words of a tool's name, in snake_case, kebab-case or camelCase", () => {
    const names = ["read_file", "runCommand", "edit-file", "delete_branch", "rename", "grep", "web_fetch", "think", "todo_write", "frobnicate"];
    expect(names.map((name) => guessToolKind(name))).toEqual(["read", "execute", "edit", "delete", "move", "search", "fetch", "think", "think", "other"]);
  });

  it("takes a tool that keeps a plan or a to-do list for thinking, whatever its verb: it changes no file", () => {
    expect(["update_plan", "todo_write", "writeTodos", "create_plan", "edit-checklist"].map((name) => guessToolKind(name))).toEqual(["think", "think", "think", "think", "think"]);
  });

  it("prefers the more telling word when a name has several (delete over edit over read)", () => {
    expect([guessToolKind("remove_and_write"), guessToolKind("write_then_read"), guessToolKind("runSearch")]).toEqual(["delete", "edit", "execute"]);
  });
});

describe("toolTitle", () => {
  it("is the tool's name and its most telling argument, shortened", () => {
    expect(toolTitle("read_file", { path: "src/a.ts", line: 3 })).toBe("read_file src/a.ts");
    expect(toolTitle("run_command", { command: "npm test" })).toBe("run_command npm test");
    expect(toolTitle("glob", { pattern: ["*.ts", "*.js"] })).toBe("glob *.ts *.js");
    expect(toolTitle("run_command", { command: "x".repeat(100) })).toBe(`run_command ${"x".repeat(77)}…`);
    expect(toolTitle("ping", {})).toBe("ping");
    expect(toolTitle("ping", "not an object")).toBe("ping");
  });
});

describe("toolLocations", () => {
  it("names the absolute paths of path-like arguments, with the line when one is given", () => {
    expect(toolLocations({ path: "src/a.ts", line: 12 }, "/project")).toEqual([{ path: "/project/src/a.ts", line: 12 }]);
    expect(toolLocations({ source: "/etc/hosts", destination: "b.txt" }, "/project")).toEqual([{ path: "/etc/hosts" }, { path: "/project/b.txt" }]);
    expect(toolLocations({ file: ["a.ts", "b.ts"], startLine: 4 }, "/p")).toEqual([
      { path: "/p/a.ts", line: 4 },
      { path: "/p/b.ts", line: 4 },
    ]);
  });

  it("leaves out URLs, empty paths, lines that are not positive whole numbers, and inputs that are not objects", () => {
    expect(toolLocations({ url: "https://example.com", path: "https://example.com/a" }, "/p")).toEqual([]);
    expect(toolLocations({ path: "", target: 42 }, "/p")).toEqual([]);
    expect(toolLocations({ path: "a.ts", line: 0, offset: 1.5 }, "/p")).toEqual([{ path: "/p/a.ts" }]);
    expect(toolLocations(null, "/p")).toEqual([]);
  });
});

describe("wireLocations", () => {
  it("sends a line only where a tool gave one", () => {
    expect(wireLocations([{ path: "/p/a.ts", line: 3 }, { path: "/p/b.ts" }, { path: "/p/c.ts", line: undefined }])).toEqual([{ path: "/p/a.ts", line: 3 }, { path: "/p/b.ts" }, { path: "/p/c.ts" }]);
  });
});

describe("toolContent", () => {
  it("shows what the tool showed: text (bounded), a diff, a terminal", () => {
    expect(
      toolContent(
        [
          { type: "text", text: "x".repeat(500) },
          { type: "diff", path: "/p/a.ts", oldText: null, newText: "new" },
          { type: "terminal", terminalId: "term_1" },
        ],
        "ignored when there is a display",
        200,
      ),
    ).toEqual([
      { type: "content", content: { type: "text", text: boundText("x".repeat(500), 200) } },
      { type: "diff", path: "/p/a.ts", oldText: null, newText: "new" },
      { type: "terminal", terminalId: "term_1" },
    ]);
  });

  it("else shows the output as text: a string as it is, anything else as JSON, nothing for no output", () => {
    expect(toolContent(undefined, "done", 100)).toEqual([{ type: "content", content: { type: "text", text: "done" } }]);
    expect(toolContent([], { ok: true }, 100)).toEqual([{ type: "content", content: { type: "text", text: '{\n  "ok": true\n}' } }]);
    expect(toolContent(undefined, null, 100)).toEqual([]);
    expect(toolContent(undefined, undefined, 100)).toEqual([]);
    expect([outputText(""), outputText(3), outputText(undefined)]).toEqual(["", "3", ""]);
  });
});

describe("boundText", () => {
  it("keeps a text under the limit as it is, and else its head and tail with a note of what was cut", () => {
    expect(boundText("short", 100)).toBe("short");
    const text = `${"a".repeat(500)}${"b".repeat(500)}`;
    const bounded = boundText(text, 200);
    expect(bounded).toBe(`${"a".repeat(60)}\n… [880 characters not shown] …\n${"b".repeat(60)}`);
    expect(bounded.length).toBeLessThanOrEqual(200);
  });
});

describe("ToolCallIds", () => {
  it("keeps ids unique in a session when a model reuses them, and events about a call use its latest id", () => {
    const ids = new ToolCallIds();
    expect(ids.has("call_1")).toBe(false);
    expect(ids.allocate("call_1")).toBe("call_1");
    expect(ids.of("call_1")).toBe("call_1");
    expect(ids.allocate("call_1")).toBe("call_1~2");
    expect(ids.of("call_1")).toBe("call_1~2");
    expect(ids.allocate("call_1")).toBe("call_1~3");
    // A call never announced gets an id when something first names it.
    expect(ids.of("call_9")).toBe("call_9");
    expect(ids.has("call_9")).toBe(true);
    // An id that looks like a suffixed one is not taken twice.
    expect(ids.allocate("call_1~2")).toBe("call_1~2~2");
  });
});
