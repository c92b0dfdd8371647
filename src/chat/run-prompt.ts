// One-shot `weft chat` (`-p "prompt"`, or a prompt on stdin): starts the agent (or connects to it), opens a session (or
// carries one on), sends the one prompt, answers permissions by the `--approve` policy, prints the
// turn as text or as the ACP messages themselves (`--format json`), and exits with a code that says
// how the turn ended (prompt-exit-codes.ts). The prompt is marked unattended (unattended-turns.ts),
// so weft's own agent leaves the policy whole, and tells a failed run and a waiting question apart
// from a reply.

import * as acp from "@agentclientprotocol/sdk";

import { POLICY_META, UNATTENDED_META, waitingQuestions } from "../acp/wire/unattended-turns.js";
import type { AgentLink, AgentTarget } from "./agent-link.js";
import { type ApprovalPolicy, policyAllows, policyOutcome, policyReason } from "./approval-policy.js";
import { ChatSessions } from "./chat-sessions.js";
import { delay } from "./delay.js";
import { answerLocally } from "./local-access.js";
import { LocalFiles } from "./local-files.js";
import { LocalTerminals } from "./local-terminals.js";
import { openAgentLink } from "./open-agent-link.js";
import { EXIT_CODES, exitCodeOf } from "./prompt-exit-codes.js";
import { terminalStyle, UpdateRenderer } from "./render-updates.js";
import { shellWord } from "./shell-word.js";
import { isUnknownSession, unknownSessionMessage } from "./unknown-session.js";
import { errorMessage } from "../errors/error-message.js";

/** Which session the run carries on, if any: one by id, by the name a run gave it, or the last here. */
export type CarryOn = { sessionId: string } | { name: string } | { last: true };

export interface PromptRunOptions {
  /** The agent: a command to start, or a remote server's URL. */
  agent: AgentTarget;
  /**
   * What names the agent in the sessions file (its session ids mean nothing to another): the
   * `--agent` command as given, "weft acp" for weft's own, whatever its model flags, or the URL.
   */
  agentKey: string;
  /** The session's directory; fs and terminal requests stay inside it. */
  cwd: string;
  /** The whole prompt. */
  prompt: string;
  /** `text`: the turn as chat shows it; `json`: every ACP message both ways, one a line, as sent. */
  format: "text" | "json";
  /** How permission requests are answered. */
  approve: ApprovalPolicy;
  carryOn?: CarryOn | undefined;
  /** The file of named sessions (chat-sessions.ts). */
  sessionsFile: string;
  env?: NodeJS.ProcessEnv | undefined;
  /** Where the turn goes (stdout). */
  output: NodeJS.WritableStream & { isTTY?: boolean | undefined };
  /** Where diagnostics go (stderr). */
  errors: NodeJS.WritableStream;
  version: string;
}

/** Runs the one turn; resolves with the exit code and never rejects. */
export async function runPrompt(options: PromptRunOptions): Promise<number> {
  const say = (text: string) => {
    options.errors.write(`weft chat: ${text}\n`);
  };
  const json = options.format === "json";
  // A reader that goes away (`| head`) closes the output: nothing more is written, and the turn is
  // cancelled as if by Ctrl-C (see below), instead of an EPIPE crashing chat.
  let outputClosed = false;
  const print = (text: string) => {
    if (!outputClosed) {
      options.output.write(text);
    }
  };
  const printLine = (line: string) => {
    if (isJsonObject(line)) {
      print(`${line}\n`);
    } else if (line.trim() !== "") {
      say(`the agent wrote a line that is not an ACP message: ${line.slice(0, 200)}`);
    }
  };
  let link: AgentLink;
  try {
    link = await openAgentLink(options.agent, { cwd: options.cwd, env: options.env, ...(json ? { fromAgent: printLine, toAgent: printLine } : {}) });
  } catch (error) {
    say(errorMessage(error));
    return EXIT_CODES.agentFailed;
  }
  const color = Boolean(options.output.isTTY) && !(options.env ?? process.env).NO_COLOR;
  const renderer = new UpdateRenderer(print, terminalStyle(color));
  const files = new LocalFiles(options.cwd);
  const terminals = new LocalTerminals(options.cwd);
  /** Tool call kinds by id, for a permission request that does not repeat its call's kind. */
  const kinds = new Map<string, acp.ToolKind>();
  let denied = false;
  let replaying = false;

  // The agent's updates and questions; its fs/* and terminal/* requests go to answerLocally().
  const app = acp
    .client({ name: "weft-chat" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      const update = params.update;
      if ((update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") && update.kind) {
        kinds.set(update.toolCallId, update.kind);
      }
      // A loaded session's history is replayed first; the text output shows only this turn.
      if (!json && !replaying) {
        renderer.render(update);
      }
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      const kind = params.toolCall.kind ?? kinds.get(params.toolCall.toolCallId);
      const allow = policyAllows(options.approve, kind ?? undefined);
      const title = params.toolCall.title ?? params.toolCall.toolCallId;
      if (!json) {
        renderer.breakLine();
      }
      denied ||= !allow;
      // Said once, as it happens; the exit code says it again at the end.
      say(`${allow ? "allowed" : "denied"} ${title} (${kind ?? "other"}) by --approve ${options.approve}`);
      const outcome = policyOutcome(allow, params.options);
      // The agent tells its model the policy refused, not a person (weft's does).
      return allow ? { outcome } : { outcome, _meta: { [POLICY_META]: policyReason(options.approve) } };
    });
  const connection = answerLocally(app, files, terminals).connect(link.stream);
  const agent = connection.agent;
  /** A request that fails if the agent exits (or its connection ends) first. */
  const whileAlive = <T>(request: Promise<T>): Promise<T> => Promise.race([request, link.ended.then((message) => Promise.reject(new Error(message)))]);

  let sessionId: string | undefined;
  let interrupts = 0;
  let leaveNow: ((code: number) => void) | undefined;
  const left = new Promise<number>((resolve) => {
    leaveNow = resolve;
  });
  const interrupt = () => {
    interrupts++;
    if (interrupts === 1 && sessionId !== undefined) {
      say("cancelling the turn (again to leave at once)");
      void agent.notify(acp.methods.agent.session.cancel, { sessionId }).catch(() => undefined);
    } else {
      leaveNow?.(EXIT_CODES.cancelled);
    }
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  const outputFailed = () => {
    if (!outputClosed) {
      outputClosed = true;
      say("the output was closed; cancelling the turn");
      interrupt();
    }
  };
  options.output.on("error", outputFailed);

  const turn = async (): Promise<number> => {
    const init = await whileAlive(
      agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: "weft-chat", title: "weft chat", version: options.version },
      }),
    );
    const agentName = options.agentKey;
    const sessions = new ChatSessions(options.sessionsFile);
    const carryOn = options.carryOn;
    let existing: string | undefined;
    const name = carryOn && "name" in carryOn ? carryOn.name : undefined;
    if (carryOn && "sessionId" in carryOn) {
      existing = carryOn.sessionId;
    } else if (carryOn && "name" in carryOn) {
      existing = sessions.named(options.cwd, agentName, carryOn.name)?.sessionId;
    } else if (carryOn) {
      existing = sessions.last(options.cwd, agentName)?.sessionId;
      if (existing === undefined) {
        say(`no earlier session in ${options.cwd}; starting one`);
      }
    }
    if (existing !== undefined) {
      const capabilities = init.agentCapabilities;
      try {
        if (capabilities?.sessionCapabilities?.resume) {
          await whileAlive(agent.request(acp.methods.agent.session.resume, { sessionId: existing, cwd: options.cwd, mcpServers: [] }));
        } else if (capabilities?.loadSession) {
          replaying = true;
          await whileAlive(agent.request(acp.methods.agent.session.load, { sessionId: existing, cwd: options.cwd, mcpServers: [] }));
          replaying = false;
        } else {
          say("the agent cannot carry a session on (it offers neither session/resume nor session/load)");
          return EXIT_CODES.agentFailed;
        }
      } catch (error) {
        if (!isUnknownSession(error)) {
          throw error;
        }
        say(unknownSessionMessage(existing, options.cwd, name));
        return EXIT_CODES.agentFailed;
      }
      sessionId = existing;
    } else {
      sessionId = (await whileAlive(agent.request(acp.methods.agent.session.new, { cwd: options.cwd, mcpServers: [] }))).sessionId;
    }
    sessions.remember({ cwd: options.cwd, agent: agentName, sessionId, ...(name === undefined ? {} : { name }), startedByRun: existing === undefined });
    if (interrupts > 0) {
      return EXIT_CODES.cancelled;
    }
    const response = await whileAlive(agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: options.prompt }], _meta: { [UNATTENDED_META]: true } }));
    if (!json) {
      renderer.breakLine();
    }
    const waiting = response.stopReason === "end_turn" && waitingQuestions(response._meta) !== undefined;
    if (response.stopReason !== "end_turn") {
      say(`the turn ended: ${response.stopReason.replaceAll("_", " ")}`);
    } else if (waiting) {
      // The same command carries on there (its --cwd, --agent or --graph name the same agent).
      const carry = name === undefined ? `--resume ${sessionId}` : `--session ${shellWord(name)}`;
      say(`the agent asked a question and is waiting for the answer; answer it with the same command and ${carry} -p "<answer>"`);
    }
    return exitCodeOf(response.stopReason, { denied, waiting });
  };

  let code: number;
  try {
    code = await Promise.race([turn(), left]);
  } catch (error) {
    if (!json) {
      renderer.breakLine();
    }
    // A request can fail on the closed connection a moment before the exit is seen.
    const gone = link.gone || (await Promise.race([link.ended.then(() => true), delay(500).then(() => false)]));
    say(gone ? await link.ended : errorMessage(error));
    code = EXIT_CODES.agentFailed;
  }
  process.off("SIGINT", interrupt);
  process.off("SIGTERM", interrupt);
  options.output.off("error", outputFailed);
  terminals.dispose();
  await link.close(code === EXIT_CODES.cancelled && interrupts > 1 ? 0 : 3_000);
  connection.close();
  return code;
}

function isJsonObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
