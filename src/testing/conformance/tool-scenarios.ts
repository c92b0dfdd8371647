// Scenarios of tool calls: their updates and order, each answer to a permission request, and
// cancel, both while a reply streams and while a permission request is open.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";

import { type AgentRun, optionOf, type WireLine } from "./agent-run.js";
import type { ModelCall, OfferedTool } from "./conformance-model.js";
import { errorOf, fail, foldToolCalls, readTool, type Scenario, type ScenarioContext, skip, type ToolChoice, toolNames, writeTool } from "./scenario.js";
import { calledModel, promptTurn } from "./turn-scenarios.js";

/** How long the check waits for a cancelled prompt's answer before it lets the model's reply go on. */
const CANCEL_GRACE_MS = 3_000;

export const READ_FILE = "conformance-read.txt";
export const WRITE_FILE = "conformance-write.txt";
export const BEFORE = "conformance: before\n";
export const AFTER = "conformance: written by the agent\n";

/**
 * Plans a turn in which the model calls a tool `choose` picks from the tools offered, then ends
 * with text. Resolves, on the first model call, with the tool chosen (undefined when none fits).
 */
export function planToolTurn(context: ScenarioContext, choose: (call: ModelCall) => ToolChoice | undefined, calls: ModelCall[] = []): Promise<{ tool: ToolChoice | undefined; call: ModelCall }> {
  return new Promise((resolve) => {
    context.model.plan(context.token, (call) => {
      calls.push(call);
      if (call.toolResults > 0) {
        return { text: "Done with the tool." };
      }
      const tool = choose(call);
      resolve({ tool, call });
      return tool ? { text: "Using a tool. ", toolCalls: [{ name: tool.name, arguments: tool.arguments, id: `call_${context.token}` }] } : { text: "No tool fits." };
    });
  });
}

export function chooseRead(context: ScenarioContext): (call: ModelCall) => ToolChoice | undefined {
  writeFileSync(join(context.project, READ_FILE), "The conformance check wrote this file for the agent to read.\n");
  return (call) => readTool(call.tools, READ_FILE);
}

export function chooseWrite(context: ScenarioContext): (call: ModelCall) => ToolChoice | undefined {
  // The file is there before, for an edit tool to change; a write tool replaces it.
  writeFileSync(join(context.project, WRITE_FILE), BEFORE);
  return (call) => writeTool(call.tools, WRITE_FILE, AFTER, BEFORE.trimEnd());
}

export const noReadTool = (tools: readonly OfferedTool[]) => `the agent offers the model no read tool (a tool named like "read" with a path parameter); it offers ${toolNames(tools)}`;

export const noWriteTool = (tools: readonly OfferedTool[]) =>
  `the agent offers the model no tool to write a file with (a tool named like "write", "create" or "edit" with a path parameter); it offers ${toolNames(tools)}`;

/**
 * Prompts `${token} ${ask}` in a turn whose model calls the agent's read or write tool, and waits
 * for the prompt's answer. Fails when the agent never called the model; skipped when it offers no
 * such tool. `calls` collects the model calls.
 */
export async function toolTurn(
  context: ScenarioContext,
  run: AgentRun,
  sessionId: string,
  kind: "read" | "write",
  ask: string,
  calls: ModelCall[] = [],
): Promise<{ from: number; answer: WireLine; stopReason: string; tool: ToolChoice; call: ModelCall }> {
  const chosen = planToolTurn(context, kind === "read" ? chooseRead(context) : chooseWrite(context), calls);
  const { from, answer, stopReason } = await promptTurn(run, sessionId, `${context.token} ${ask}`);
  calledModel(calls.length, run);
  const { tool, call } = await chosen;
  if (!tool) {
    skip(kind === "read" ? noReadTool(call.tools) : noWriteTool(call.tools));
  }
  return { from, answer, stopReason, tool, call };
}

export function written(context: ScenarioContext): boolean {
  const path = join(context.project, WRITE_FILE);
  return existsSync(path) && readFileSync(path, "utf8").includes(AFTER.trimEnd());
}

const toolCalls: Scenario = {
  id: "tool-calls",
  tier: "core",
  async run(context) {
    const { run, sessionId } = await context.startSession();
    const { from, answer } = await toolTurn(context, run, sessionId, "read", `Read ${READ_FILE}.`);
    checkToolUpdates(run, sessionId, from, run.lines.indexOf(answer));
  },
};

/** The tool-call rules: tool_call before its updates, unique ids, status only forward (absolute paths are the kit's rule after every scenario). */
function checkToolUpdates(run: AgentRun, sessionId: string, from: number, to: number): void {
  const rank: Record<string, number> = { pending: 0, in_progress: 1, completed: 2, failed: 2 };
  const statuses = new Map<string, string>();
  const updates = run.updates(sessionId, from).filter(({ line }) => run.lines.indexOf(line) < to);
  for (const { line, update } of updates) {
    const kind = update.sessionUpdate;
    if (kind !== "tool_call" && kind !== "tool_call_update") {
      continue;
    }
    const id = String(update.toolCallId);
    if (kind === "tool_call" && statuses.has(id)) {
      fail(`tool call id ${id} was announced twice (ids must be unique in a session)`, line);
    }
    if (kind === "tool_call_update" && !statuses.has(id)) {
      fail(`a tool_call_update for ${id} came before its tool_call`, line);
    }
    const before = statuses.get(id);
    // A status ACP does not define is the schema scenario's to report.
    const status = typeof update.status === "string" && update.status in rank ? update.status : kind === "tool_call" && before === undefined ? "pending" : before;
    if (before !== undefined && status !== undefined && status !== before && ((rank[status] ?? 0) <= (rank[before] ?? 0) || (rank[before] ?? 0) === 2)) {
      fail(`tool call ${id} went from ${before} back to ${status} (a status only moves forward: pending, in_progress, then completed or failed)`, line);
    }
    statuses.set(id, status ?? "pending");
  }
  if (statuses.size === 0) {
    fail("the model called a tool, but the client got no tool_call update", updates.at(-1)?.line);
  }
  for (const [id, status] of statuses) {
    if (status !== "completed" && status !== "failed") {
      fail(`tool call ${id} was left ${status} when the prompt was answered (it must end completed or failed)`, updates.findLast(({ update }) => update.toolCallId === id)?.line);
    }
  }
}

/**
 * A turn in which the model calls the write tool and the editor answers the permission request
 * with `answer`. Skipped when the agent offers no write tool or does not ask.
 */
async function permissionTurn(
  context: ScenarioContext,
  answer: (request: acp.RequestPermissionRequest, run: AgentRun, sessionId: string) => Promise<acp.RequestPermissionResponse>,
): Promise<{ run: AgentRun; sessionId: string; stopReason: string; answerLine: WireLine; toolCall: { status: string | undefined; line: WireLine } | undefined; request: acp.RequestPermissionRequest }> {
  const { run, sessionId } = await context.startSession();
  run.answerPermission = (request) => answer(request, run, sessionId);
  const { from, answer: answerLine, stopReason, tool } = await toolTurn(context, run, sessionId, "write", `Write ${WRITE_FILE}.`);
  const request = run.permissions.at(-1);
  if (!request) {
    skip(`the agent ran ${tool.name} without asking permission, so the answers to a permission request cannot be checked`);
  }
  const folded = foldToolCalls(run.updates(sessionId, from).filter(({ line }) => run.lines.indexOf(line) < run.lines.indexOf(answerLine)));
  const toolCall = folded.find((folded) => folded.id === request.toolCall.toolCallId);
  return { run, sessionId, stopReason, answerLine, toolCall, request };
}

/** The permission request line, to quote. */
export function permissionLine(run: AgentRun): WireLine | undefined {
  return run.lines.findLast((line) => line.from === "agent" && line.message?.method === "session/request_permission");
}

/**
 * A permission turn the editor answers by choosing to allow (or reject) the call, once or else
 * always; fails when the request offers neither.
 */
async function permissionTurnChoosing(context: ScenarioContext, choice: "allow" | "reject"): Promise<Awaited<ReturnType<typeof permissionTurn>>> {
  let missing = false;
  const turn = await permissionTurn(context, async (request) => {
    const optionId = optionOf(request, `${choice}_once`) ?? optionOf(request, `${choice}_always`);
    missing = optionId === undefined;
    return optionId === undefined ? { outcome: { outcome: "cancelled" } } : { outcome: { outcome: "selected", optionId } };
  });
  if (missing) {
    fail(`the permission request offers no ${choice} option (kind ${choice}_once or ${choice}_always)`, permissionLine(turn.run));
  }
  return turn;
}

const permissionAllow: Scenario = {
  id: "permission-allow",
  tier: "core",
  async run(context) {
    const turn = await permissionTurnChoosing(context, "allow");
    if (!written(context)) {
      fail(`the editor allowed the write, but ${WRITE_FILE} was not written`, turn.toolCall?.line ?? permissionLine(turn.run));
    }
    if (turn.toolCall && turn.toolCall.status !== "completed") {
      fail(`the editor allowed the write, but its tool call ended ${String(turn.toolCall.status)}, not completed`, turn.toolCall.line);
    }
  },
};

/** Fails when a tool the editor did not allow ran, or its tool call says it completed. */
function notRun(context: ScenarioContext, turn: Awaited<ReturnType<typeof permissionTurn>>, how: string): void {
  if (written(context)) {
    fail(`${how}, yet the tool ran: ${WRITE_FILE} was written`, turn.toolCall?.line ?? permissionLine(turn.run));
  }
  if (turn.toolCall?.status === "completed") {
    fail(`${how}, yet its tool call ended completed (it must end failed)`, turn.toolCall.line);
  }
}

const permissionReject: Scenario = {
  id: "permission-reject",
  tier: "core",
  async run(context) {
    const turn = await permissionTurnChoosing(context, "reject");
    notRun(context, turn, "the editor rejected the write");
  },
};

const permissionError: Scenario = {
  id: "permission-error",
  tier: "core",
  async run(context) {
    const turn = await permissionTurn(context, async () => {
      throw new acp.RequestError(-32603, "The conformance check failed this permission request on purpose.");
    });
    notRun(context, turn, "the editor answered the permission request with an error");
  },
};

/** Fails unless the prompt answered by `answer` ended cancelled. */
function expectCancelled(answer: WireLine | undefined, stopReason: string | undefined): void {
  if (!answer) {
    fail("the prompt was never answered after session/cancel");
  }
  if (errorOf(answer)) {
    fail("after session/cancel the prompt was answered with an error; it must be answered with stopReason cancelled", answer);
  }
  if (stopReason !== "cancelled") {
    fail(`after session/cancel the prompt was answered ${JSON.stringify(stopReason)}, not "cancelled"`, answer);
  }
}

/** Sends `prompt` and returns its eventual answer as a value (the line and stop reason), never a rejection. */
function sendPrompt(run: AgentRun, sessionId: string, text: string): Promise<{ stopReason: string | undefined; error?: Error }> {
  return run.prompt(sessionId, text).then(
    (response) => ({ stopReason: response.stopReason }),
    (error: unknown) => ({ stopReason: undefined, error: error as Error }),
  );
}

/**
 * Starts a prompt (with `send`) whose reply streams its first chunk and holds the rest until
 * `letGo()`; resolves once that chunk has had a moment to reach the client, so that what the
 * scenario does next lands mid-stream. Let go, the reply runs to its end.
 */
export async function midStream<T>(
  context: ScenarioContext,
  run: AgentRun,
  sessionId: string,
  words: string[],
  send: () => Promise<T>,
): Promise<{ from: number; answered: Promise<T>; letGo(): void }> {
  let sent = "";
  context.model.onText = (text) => {
    sent += text;
  };
  const calls: ModelCall[] = [];
  let holding = true;
  context.model.plan(context.token, (call) => {
    calls.push(call);
    return { text: words, beforeChunk: () => (sent === "" || !holding ? undefined : context.model.hold()) };
  });
  const from = run.lines.length;
  const answered = send();
  await run.waitFor(() => sent !== "" || calls.length > 0, "the model call of the prompt");
  await run.waitUpTo(() => sent !== "", context.waitMs);
  await run.waitUpTo(() => run.text(sessionId, from) !== "", 1_000);
  return {
    from,
    answered,
    letGo: () => {
      holding = false;
      context.model.release();
    },
  };
}

const cancelStreaming: Scenario = {
  id: "cancel-streaming",
  tier: "core",
  async run(context) {
    const { run, sessionId } = await context.startSession();
    const { from, answered, letGo } = await midStream(context, run, sessionId, ["Cancel me here, ", "or this comes too."], () => sendPrompt(run, sessionId, `${context.token} Tell a long story.`));
    await run.cancel(sessionId);
    const prompt = await run.within(
      Promise.race([answered, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), CANCEL_GRACE_MS))]).then((result) => {
        letGo();
        return result ?? answered;
      }),
      "the answer to the cancelled prompt",
    );
    expectCancelled(run.answers("session/prompt", sessionId, from).at(-1)?.line, prompt.stopReason);
  },
};

const cancelPermission: Scenario = {
  id: "cancel-permission",
  tier: "core",
  async run(context) {
    // The editor cancels the turn while the agent waits for permission, then answers the request
    // `cancelled`, as ACP asks of an editor.
    const turn = await permissionTurn(context, async (_request, run, sessionId) => {
      await run.cancel(sessionId);
      return { outcome: { outcome: "cancelled" } };
    });
    expectCancelled(turn.answerLine, turn.stopReason);
    notRun(context, turn, "the turn was cancelled while its permission request was open");
  },
};

export const toolScenarios: Scenario[] = [toolCalls, permissionAllow, permissionReject, permissionError, cancelStreaming, cancelPermission];
