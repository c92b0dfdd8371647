// One session's slash commands: the list it sends (once the editor knows the session, and again
// only when it changes, with the config or by setCommands), which prompts run a command, and what
// running one gives the turn.

import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import type { Logger } from "../../types/logger.js";
import { ConfigOptions } from "./config-options.js";
import { HeldUpdates } from "../session/held-updates.js";
import { SessionCommands } from "./session-commands.js";
import { SessionConfig } from "./session-config.js";
import { type AcpSessionRecord, MemoryAcpSessionStore } from "../record/session-store.js";
import type { AcpCommand, AcpCommands } from "./slash-commands.js";
import { StoredSession } from "../session/stored-session.js";
import { UpdateSink } from "../session/update-sink.js";

const modes = new ConfigOptions([], { default: "ask", available: [{ id: "ask", name: "Ask" }, { id: "code", name: "Code" }] });
const help: AcpCommand = { name: "help", description: "Lists the commands.", run: () => ({ reply: "Try /review." }) };
const review: AcpCommand = { name: "review", description: "Reviews a file.", hint: "a file", run: ({ input }) => ({ prompt: `Review ${input} carefully.` }) };
const plan: AcpCommand = { name: "plan", description: "Plans the work.", run: ({ input, history }) => ({ input: { task: input, earlier: history.length } }) };

function sessionCommands(declared: AcpCommands | undefined) {
  const record: AcpSessionRecord = { info: { id: "sess_1", cwd: "/project", mcpServers: [] }, history: [], always: [], updatedAt: "2025-01-01T00:00:00.000Z", config: modes.defaults() };
  const warnings: string[] = [];
  const logger: Logger = { debug: () => undefined, info: () => undefined, warn: (message) => void warnings.push(message), error: () => undefined };
  const updates: SessionUpdate[] = [];
  const sink = new UpdateSink("sess_1", async (notification) => void updates.push(notification.update), logger);
  const session = new StoredSession(new MemoryAcpSessionStore(), record, logger);
  const held = new HeldUpdates(sink);
  const config = new SessionConfig(modes, session, held, () => true);
  const commands = new SessionCommands(declared, session, config, held, logger);
  config.onChange(() => commands.refresh());
  const sent = async () => {
    await held.flush();
    return updates.filter((update) => update.sessionUpdate === "available_commands_update").map((update) => (update.sessionUpdate === "available_commands_update" ? update.availableCommands.map((each) => each.name) : []));
  };
  return { commands, config, record, warnings, sent };
}

const text = (value: string) => [{ type: "text" as const, text: value }];

describe("SessionCommands", () => {
  it("sends the declared list once the editor knows the session, and not again while it is unchanged", async () => {
    const { commands, sent } = sessionCommands([help, review]);
    commands.announce();
    commands.refresh();
    expect(await sent()).toEqual([["help", "review"]]);
  });

  it("sends nothing for an agent without commands, and an empty list for one whose session has none", async () => {
    const none = sessionCommands(undefined);
    none.commands.announce();
    expect(await none.sent()).toEqual([]);
    const empty = sessionCommands(() => []);
    empty.commands.announce();
    expect(await empty.sent()).toEqual([[]]);
  });

  it("asks a function of the config again when the config changes, and sends the list when it changed", async () => {
    const { commands, config, sent } = sessionCommands(({ config }) => (config.mode === "code" ? [help, review] : [help]));
    commands.announce();
    await config.setMode("code");
    await config.setMode("code");
    await config.setMode("ask");
    expect(await sent()).toEqual([["help"], ["help", "review"], ["help"]]);
    expect(commands.match(text("/review a.ts"))).toBeUndefined();
  });

  it("setCommands replaces the list for the session, checks it first, and undefined goes back to the declared one", async () => {
    const { commands, sent } = sessionCommands([help]);
    commands.announce();
    commands.set([plan]);
    expect(commands.match(text("/help"))).toBeUndefined();
    expect(commands.match(text("/plan now"))?.command).toBe(plan);
    expect(() => commands.set([plan, plan])).toThrow('Command names must be unique: "plan" is declared twice.');
    commands.set(undefined);
    expect(await sent()).toEqual([["help"], ["plan"], ["help"]]);
  });

  it("offers no commands when the function throws or gives a bad list, and says why", async () => {
    const { commands, warnings, sent } = sessionCommands(() => [help, help]);
    commands.announce();
    expect(await sent()).toEqual([[]]);
    expect(warnings).toEqual(["commands() failed; the session offers no commands"]);
  });

  it("matches only the session's commands: an unknown /word is a plain prompt", () => {
    const { commands } = sessionCommands([help, review]);
    expect(commands.match(text("/review src/a.ts"))).toMatchObject({ command: review, input: "src/a.ts", attachments: [] });
    expect(commands.match(text("/reviews"))).toBeUndefined();
    expect(commands.match(text("/etc/hosts is odd"))).toBeUndefined();
    expect(commands.match(text("please /help"))).toBeUndefined();
  });

  it("runs a command: a reply, a prompt to run with the attachments, or the graph's input with the prompt as typed", async () => {
    const { commands, record } = sessionCommands([help, review, plan]);
    record.history.push({ id: "u1", role: "user", parts: [{ type: "text", text: "earlier" }] });
    const signal = new AbortController().signal;
    const link = { type: "resource_link" as const, uri: "file:///project/a.ts", name: "a.ts" };
    const run = (blocks: Parameters<SessionCommands["run"]>[1]) => commands.run(commands.match(blocks) as NonNullable<ReturnType<SessionCommands["match"]>>, blocks, signal);
    expect(await run(text("/help"))).toEqual({ reply: "Try /review." });
    expect(await run([{ type: "text", text: "/review a.ts" }, link])).toEqual({ blocks: [{ type: "text", text: "Review a.ts carefully." }, link] });
    expect(await run(text("/plan the release"))).toEqual({ blocks: text("/plan the release"), input: { task: "the release", earlier: 1 } });
  });

  it("gives a CommandFailedError for a command that throws or answers with something else", async () => {
    const broken: AcpCommand = { name: "broken", description: "Fails.", run: () => Promise.reject(new Error("no diff to review")) };
    const vague = { name: "vague", description: "Answers oddly.", run: () => "done" } as unknown as AcpCommand;
    const { commands } = sessionCommands([broken, vague]);
    const signal = new AbortController().signal;
    const failed = await commands.run({ command: broken, input: "", attachments: [] }, text("/broken"), signal);
    expect("error" in failed && failed.error).toMatchObject({ code: "command_failed", command: "broken", message: "The command /broken failed: no diff to review" });
    const odd = await commands.run({ command: vague, input: "", attachments: [] }, text("/vague"), signal);
    expect("error" in odd && odd.error.message).toBe("The command /vague failed: it must answer with one of { reply: text }, { prompt: text } or { input }.");
  });
});
