// Slash command declarations: what is refused and why, how they look on the wire, which prompts
// name a command, and what counts as a command's answer.

import { describe, expect, it } from "vitest";

import { type AcpCommand, checkCommands, checkResult, commandPrompt, toAvailableCommands } from "./slash-commands.js";

const command = (name: string, extra: Partial<AcpCommand> = {}): AcpCommand => ({ name, description: `Runs ${name}.`, run: () => ({ reply: name }), ...extra });

describe("checkCommands", () => {
  it("takes words without spaces or a leading slash, each once", () => {
    expect(() => checkCommands([command("review"), command("plan:new"), command("ask-me", { hint: "a question" })])).not.toThrow();
  });

  it("refuses a bad name, a name twice, a missing description, an empty hint and a missing run, saying which", () => {
    expect(() => checkCommands([command("")])).toThrow('A command\'s name must be a word without spaces or a leading slash, not "".');
    expect(() => checkCommands([command("/review")])).toThrow("not \"/review\"");
    expect(() => checkCommands([command("two words")])).toThrow("not \"two words\"");
    expect(() => checkCommands([command("review"), command("review")])).toThrow('Command names must be unique: "review" is declared twice.');
    expect(() => checkCommands([command("review", { description: " " })])).toThrow('Command "review" needs a description');
    expect(() => checkCommands([command("review", { hint: "" })])).toThrow('Command "review" has an empty hint');
    expect(() => checkCommands([{ name: "review", description: "Reviews." } as AcpCommand])).toThrow('Command "review" has no run function.');
    expect(() => checkCommands([command("")])).toThrow(expect.objectContaining({ code: "invalid_option" }));
  });
});

describe("toAvailableCommands", () => {
  it("sends names without the slash, and an input hint only for commands that take input", () => {
    expect(toAvailableCommands([command("help"), command("review", { hint: "a file or a branch" })])).toEqual([
      { name: "help", description: "Runs help." },
      { name: "review", description: "Runs review.", input: { hint: "a file or a branch" } },
    ]);
  });
});

describe("commandPrompt", () => {
  it("reads the name and what follows it from the first text block, and keeps the other blocks", () => {
    const link = { type: "resource_link" as const, uri: "file:///work/app.ts", name: "app.ts" };
    expect(commandPrompt([{ type: "text", text: "/review src/app.ts  " }, link])).toEqual({ name: "review", input: "src/app.ts", attachments: [link] });
    expect(commandPrompt([{ type: "text", text: "  /help" }])).toEqual({ name: "help", input: "", attachments: [] });
    expect(commandPrompt([{ type: "text", text: "/plan\nfirst this,\nthen that" }])).toEqual({ name: "plan", input: "first this,\nthen that", attachments: [] });
  });

  it("names no command for text that does not start with /word", () => {
    for (const text of ["hello /help", "/", "/ help", "//help", "", "path/to/file"]) {
      expect(commandPrompt([{ type: "text", text }])).toBeUndefined();
    }
    expect(commandPrompt([{ type: "image", data: "AAAA", mimeType: "image/png" }, { type: "text", text: "/help" }])).toBeUndefined();
    expect(commandPrompt([])).toBeUndefined();
  });
});

describe("checkResult", () => {
  it("takes a reply, a prompt or an input, and nothing else", () => {
    expect(checkResult({ reply: "done" })).toEqual({ reply: "done" });
    expect(checkResult({ prompt: "Review this" })).toEqual({ prompt: "Review this" });
    expect(checkResult({ input: { messages: [] } })).toEqual({ input: { messages: [] } });
    expect(checkResult({ input: undefined })).toEqual({ input: undefined });
    for (const wrong of [undefined, null, "done", { reply: 3 }, { reply: "a", prompt: "b" }, {}, { text: "done" }]) {
      expect(checkResult(wrong)).toBeUndefined();
    }
  });
});
