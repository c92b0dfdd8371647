// Scenarios of what good agents do with their tools beyond what every ACP tool call must be: an
// "always" answer remembered, a replay that keeps each tool call as it ended, the diff shown in a
// permission request, files read through the editor when it offers to serve them, and the plan
// shown as the model keeps it. Each is gated on the option, capability or tool that makes it apply.

import { writeFileSync } from "node:fs";
import { basename, isAbsolute, join } from "node:path";

import type * as acp from "@agentclientprotocol/sdk";

import { optionOf, type WireLine } from "./agent-run.js";
import type { ModelCall, OfferedTool } from "./conformance-model.js";
import { fail, type FoldedToolCall, foldToolCalls, type Scenario, skip, toolNames, writeTool } from "./scenario.js";
import { load, loadableSession } from "./session-scenarios.js";
import { AFTER, BEFORE, noWriteTool, permissionLine, READ_FILE, toolTurn, WRITE_FILE, written } from "./tool-scenarios.js";
import { calledModel, promptTurn } from "./turn-scenarios.js";

const alwaysRemembered: Scenario = {
  id: "always-remembered",
  tier: "product",
  async run(context) {
    const { run, sessionId } = await context.startSession();
    const calls: ModelCall[] = [];
    const path = join(context.project, WRITE_FILE);
    writeFileSync(path, BEFORE);
    let offered = true;
    // Each turn's first model call writes the file; the call after its result ends the turn.
    context.model.plan(context.token, (call) => {
      calls.push(call);
      const tool = call.toolResults === 0 ? writeTool(call.tools, WRITE_FILE, AFTER, BEFORE.trimEnd()) : undefined;
      return tool ? { text: "Writing. ", toolCalls: [{ name: tool.name, arguments: tool.arguments, id: `call_${context.token}_${calls.length}` }] } : { text: "Done with the tool." };
    });
    run.answerPermission = async (request) => {
      const optionId = optionOf(request, "allow_always");
      offered = optionId !== undefined;
      return { outcome: { outcome: "selected", optionId: optionId ?? optionOf(request, "allow_once") ?? request.options[0]?.optionId ?? "" } };
    };
    await promptTurn(run, sessionId, `${context.token} Write ${WRITE_FILE}.`);
    calledModel(calls.length, run);
    const first = calls[0] as ModelCall;
    if (!writeTool(first.tools, WRITE_FILE, AFTER, BEFORE.trimEnd())) {
      skip(noWriteTool(first.tools));
    }
    if (run.permissions.length === 0) {
      skip("the agent wrote without asking permission, so there is no \"always\" answer to remember");
    }
    if (!offered) {
      skip("the permission request offers no allow_always option (ACP does not require one)");
    }
    if (!written(context)) {
      fail(`the editor chose allow_always, but ${WRITE_FILE} was not written`, permissionLine(run));
    }
    // The same write again, to the file as it was before.
    writeFileSync(path, BEFORE);
    const asked = run.permissions.length;
    const second = await promptTurn(run, sessionId, `${context.token} Write ${WRITE_FILE} again.`);
    if (run.permissions.length > asked) {
      fail(`the editor answered allow_always to the first write in this session, yet the same write asked again`, permissionLine(run));
    }
    if (!written(context)) {
      fail(`the second write, allowed always before, did not write ${WRITE_FILE}`, second.answer);
    }
  },
};

/** A tool call's fields that a replay must keep as the live call ended with them, as canonical JSON. */
function fidelityFields(call: FoldedToolCall): Record<string, string> {
  return Object.fromEntries((["title", "kind", "locations", "content"] as const).map((field) => [field, canonical(call[field])]));
}

/** JSON with the keys of every object sorted, so that two agents' key orders compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === "object" && inner !== null && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  ) ?? "undefined";
}

const replayFidelity: Scenario = {
  id: "replay-fidelity",
  tier: "core",
  async run(context) {
    const { run, sessionId, calls } = await loadableSession(context);
    const { from, answer } = await toolTurn(context, run, sessionId, "write", `Write ${WRITE_FILE}, then sum up.`, calls);
    const liveCalls = foldToolCalls(run.updates(sessionId, from).filter(({ line }) => run.lines.indexOf(line) < run.lines.indexOf(answer)));
    if (liveCalls.length === 0) {
      fail("the model called a tool, but the client got no tool_call update", answer);
    }
    const replayedCalls = foldToolCalls(await load(run, sessionId, context.project));
    for (const [index, live] of liveCalls.entries()) {
      const again = replayedCalls.find((replayed) => replayed.id === live.id) ?? replayedCalls[index];
      if (!again) {
        fail(`the replay dropped tool call ${live.id}, which ended ${String(live.status)} live on this line`, live.line);
      }
      const [was, is] = [fidelityFields(live), fidelityFields(again)];
      for (const field of Object.keys(was)) {
        if (was[field] !== is[field]) {
          fail(`tool call ${live.id} is replayed with ${field} ${is[field]}, but ended live with ${was[field]}`, again.line);
        }
      }
    }
  },
};

const permissionDiff: Scenario = {
  id: "permission-diff",
  tier: "product",
  async run(context) {
    const { run, sessionId } = await context.startSession();
    const { tool } = await toolTurn(context, run, sessionId, "write", `Write ${WRITE_FILE}.`);
    const request = run.permissions.at(-1);
    if (!request) {
      skip(`the agent ran ${tool.name} without asking permission, so there is no request to show the change in`);
    }
    const line = permissionLine(run);
    const diffs = (request.toolCall.content ?? []).filter((content): content is Extract<acp.ToolCallContent, { type: "diff" }> => content.type === "diff");
    if (diffs.length === 0) {
      if ((request.toolCall.locations ?? []).length === 0) {
        fail(`the permission request for ${tool.name} shows neither a diff nor the file it would change (no content of type diff, no locations)`, line);
      }
      return;
    }
    const diff = diffs.find((candidate) => typeof candidate.path === "string" && basename(candidate.path) === WRITE_FILE);
    if (!diff) {
      fail(`the permission request's diff names ${diffs.map((candidate) => JSON.stringify(candidate.path)).join(", ")}, not the file the write changes (${WRITE_FILE})`, line);
    }
    if (typeof diff.newText !== "string" || !diff.newText.includes(AFTER.trimEnd())) {
      fail(`the permission request's diff has newText ${JSON.stringify(diff.newText)}, which lacks the text the write puts in the file (${JSON.stringify(AFTER.trimEnd())})`, line);
    }
  },
};

const fsRead: Scenario = {
  id: "fs-read",
  tier: "product",
  async run(context) {
    const run = context.spawn();
    await run.initialize(undefined, { fs: { readTextFile: true } });
    const sessionId = await run.newSession(context.project);
    const { from, answer, tool } = await toolTurn(context, run, sessionId, "read", `Read ${READ_FILE}.`);
    const read = run.fileReads.find((request) => request.sessionId === sessionId && basename(request.path) === READ_FILE);
    if (!read) {
      const toolLine = foldToolCalls(run.updates(sessionId, from)).at(0)?.line;
      fail(`the client advertised fs.readTextFile, yet the agent's ${tool.name} read ${READ_FILE} without an fs/read_text_file request`, toolLine ?? answer);
    }
    if (!isAbsolute(read.path)) {
      fail(`fs/read_text_file asked for ${JSON.stringify(read.path)}: its path must be absolute`, readLine(run.lines, read));
    }
  },
};

/** The line of the fs/read_text_file request `read`. */
function readLine(lines: readonly WireLine[], read: acp.ReadTextFileRequest): WireLine | undefined {
  return lines.find((line) => line.from === "agent" && line.message?.method === "fs/read_text_file" && (line.message.params as { path?: unknown } | undefined)?.path === read.path);
}

interface JsonSchema {
  type?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
}

/**
 * A value for `schema` the kit can send: strings are `text`, an enum's value is its "pending"
 * (a plan's status) or its first, an array holds two items. Undefined for what it cannot make.
 */
function sample(schema: JsonSchema, text: string): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return schema.enum.includes("pending") ? "pending" : schema.enum[0];
  }
  const type = Array.isArray(schema.type) ? schema.type.find((name) => name !== "null") : (schema.type ?? (schema.properties ? "object" : undefined));
  switch (type) {
    case "string":
      return text;
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return false;
    case "array": {
      const items = schema.items ? [sample(schema.items, `${text} one`), sample(schema.items, `${text} two`)] : [];
      return items.length > 0 && items.every((item) => item !== undefined) ? items : undefined;
    }
    case "object": {
      const value: Record<string, unknown> = {};
      const required = new Set(schema.required ?? Object.keys(schema.properties ?? {}));
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        const inner = sample(property, text);
        if (inner !== undefined) {
          value[name] = inner;
        } else if (required.has(name)) {
          return undefined;
        }
      }
      return value;
    }
    default:
      return undefined;
  }
}

/** The plan the model is to send: a tool named like plan or todo whose input holds a list the kit can fill, and its arguments. */
function planTool(tools: readonly OfferedTool[], text: string): { name: string; arguments: Record<string, unknown> } | undefined {
  for (const tool of tools.filter((candidate) => /plan|todo/i.test(candidate.name))) {
    const parameters = (tool.parameters ?? {}) as JsonSchema;
    const hasList = Object.values(parameters.properties ?? {}).some((property) => property.type === "array");
    const args = hasList ? sample({ ...parameters, type: "object" }, text) : undefined;
    if (args !== undefined) {
      return { name: tool.name, arguments: args as Record<string, unknown> };
    }
  }
  return undefined;
}

const STEP = "Check the plan";

const planUpdates: Scenario = {
  id: "plan-updates",
  tier: "product",
  async run(context) {
    const { run, sessionId } = await context.startSession();
    const calls: ModelCall[] = [];
    let offered: readonly OfferedTool[] = [];
    let chosen: ReturnType<typeof planTool>;
    context.model.plan(context.token, (call) => {
      calls.push(call);
      if (call.toolResults > 0) {
        return { text: "Planned." };
      }
      offered = call.tools;
      chosen = planTool(call.tools, STEP);
      return chosen ? { text: "Planning. ", toolCalls: [{ name: chosen.name, arguments: chosen.arguments, id: `call_${context.token}` }] } : { text: "No plan tool." };
    });
    const { from, answer } = await promptTurn(run, sessionId, `${context.token} Plan two steps.`);
    calledModel(calls.length, run);
    if (!chosen) {
      skip(`the agent offers the model no plan tool (a tool named like "plan" or "todo" taking a list); it offers ${toolNames(offered)}`);
    }
    const plans = run.updates(sessionId, from).filter(({ update }) => update.sessionUpdate === "plan");
    if (plans.length === 0) {
      fail(`the model called ${chosen.name} with two steps, but no plan update followed`, answer);
    }
    const last = plans.at(-1) as { line: WireLine; update: Record<string, unknown> };
    const entries = Array.isArray(last.update.entries) ? (last.update.entries as Array<{ content?: unknown }>) : [];
    for (const step of [`${STEP} one`, `${STEP} two`]) {
      if (!entries.some((entry) => typeof entry?.content === "string" && entry.content.includes(step))) {
        fail(`the model's plan has the step ${JSON.stringify(step)}, but the last plan update's entries do not`, last.line);
      }
    }
  },
};

export const productScenarios: Scenario[] = [alwaysRemembered, replayFidelity, permissionDiff, fsRead, planUpdates];
