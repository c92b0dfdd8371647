// Checks every message an agent writes against the JSON schema the ACP SDK ships (with the
// conformance kit's validator and method tables, shipped in weftjs/testing), by method: a
// request's params, a notification's params, and a response's result against the response type of
// the request it answers. Also checks the rules the schema cannot express: a turn's updates while a
// request of its session is in flight, and updates about the session itself (its config, mode,
// commands, title, usage) at any time, but only once the editor knows the session (for a new one,
// after the session/new answer, since Zed drops updates of a session it does not know yet); and
// that what ACP gates on a client capability goes only to a client that advertised it: a form (in
// form mode), fs and terminal requests, notices and compactions.

import * as acp from "@agentclientprotocol/sdk";

import { NOTIFICATION_PARAMS, REQUEST_PARAMS, RESPONSE_RESULTS, schemaIssues } from "../../src/testing/conformance/acp-schema.js";

/** Updates about a session rather than a turn of it: an agent may send them between requests. */
const SESSION_LEVEL_UPDATES = new Set(["config_option_update", "current_mode_update", "available_commands_update", "session_info_update", "usage_update", "notice"]);

/** What a client must have advertised in `initialize` before the agent may send each of these. */
const GATES: Record<string, { capability: string; advertised: (capabilities: ClientCapabilities) => boolean }> = {
  "fs/read_text_file": { capability: "fs.readTextFile", advertised: (capabilities) => capabilities.fs?.readTextFile === true },
  "fs/write_text_file": { capability: "fs.writeTextFile", advertised: (capabilities) => capabilities.fs?.writeTextFile === true },
  terminal: { capability: "terminal", advertised: (capabilities) => capabilities.terminal === true },
  "elicitation/create": { capability: "elicitation.form", advertised: (capabilities) => given(capabilities.elicitation?.form) },
  notice: { capability: "session.notices", advertised: (capabilities) => given(capabilities.session?.notices) },
  compaction_update: { capability: "session.compaction", advertised: (capabilities) => given(capabilities.session?.compaction) },
  compaction_summary_chunk: { capability: "session.compaction", advertised: (capabilities) => given(capabilities.session?.compaction) },
};

interface ClientCapabilities {
  fs?: { readTextFile?: unknown; writeTextFile?: unknown };
  terminal?: unknown;
  elicitation?: { form?: unknown };
  session?: { notices?: unknown; compaction?: unknown };
}

/** ACP advertises these with an object (`{}`); omitted and null mean not. */
function given(capability: unknown): boolean {
  return capability !== undefined && capability !== null;
}

/** What is wrong with `value` as the schema's `definition` (such as `SessionConfigOption`); empty when nothing is. */
export function schemaProblems(definition: string, value: unknown): string[] {
  return schemaIssues(definition, value);
}

export interface WireProblem {
  line: string;
  problem: string;
}

type Json = Record<string, unknown>;

/** Watches both directions of one connection. */
export class WireChecker {
  readonly problems: WireProblem[] = [];
  /** Every message the agent wrote, parsed. */
  readonly fromAgent: Json[] = [];
  /** Methods of the client's requests, by id. */
  private readonly clientRequests = new Map<string, string>();
  /** Per session: the tool call ids announced since the session was opened or loaded. */
  private readonly toolCalls = new Map<string, Set<string>>();
  /** Per session: client requests the agent has not answered yet. */
  private readonly inflight = new Map<string, number>();
  /** The session each client request was for, by id. */
  private readonly requestSessions = new Map<string, string>();
  /** Sessions the editor knows: answered by session/new, or being loaded or resumed (Zed registers those first). */
  private readonly knownSessions = new Set<string>();
  /** What the client's last `initialize` advertised. */
  private capabilities: ClientCapabilities = {};

  /** A line the client wrote. */
  fromClientLine(line: string): void {
    let message: Json;
    try {
      // The SDK reads a line trimmed as JavaScript trims it: a byte order mark or any Unicode space around it is ignored.
      message = JSON.parse(line.trim()) as Json;
    } catch {
      return;
    }
    // Lines that are not objects (null, numbers, batches) are the agent's to refuse; nothing to track.
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      return;
    }
    if (typeof message.method === "string" && "id" in message) {
      this.clientRequests.set(JSON.stringify(message.id), message.method);
      if (message.method === "initialize") {
        this.capabilities = ((message.params as Json | undefined)?.clientCapabilities as ClientCapabilities | undefined) ?? {};
      }
      const sessionId = (message.params as Json | undefined)?.sessionId;
      if (typeof sessionId === "string") {
        this.requestSessions.set(JSON.stringify(message.id), sessionId);
        this.inflight.set(sessionId, (this.inflight.get(sessionId) ?? 0) + 1);
        if (message.method === "session/load") {
          this.toolCalls.set(sessionId, new Set());
        }
        if (message.method === "session/load" || message.method === "session/resume") {
          this.knownSessions.add(sessionId);
        }
      }
    }
  }

  /** A line the agent wrote. */
  fromAgentLine(line: string): void {
    let message: Json;
    try {
      message = JSON.parse(line) as Json;
    } catch {
      this.problems.push({ line, problem: "not JSON" });
      return;
    }
    this.fromAgent.push(message);
    for (const problem of schemaIssues(undefined, message)) {
      this.problems.push({ line, problem: `not an ACP message: ${problem}` });
    }
    if (message.jsonrpc !== "2.0") {
      this.problems.push({ line, problem: 'missing "jsonrpc": "2.0"' });
    }
    const method = message.method;
    if (typeof method === "string") {
      const definition = "id" in message ? REQUEST_PARAMS[method] : NOTIFICATION_PARAMS[method];
      if (!definition) {
        this.problems.push({ line, problem: `the agent sent unknown method ${method}` });
        return;
      }
      this.check(line, definition, message.params);
      if (method === "session/update") {
        this.checkUpdate(line, message.params as Json);
      }
      // The schema lets any unknown mode through its catch-all; a form must be a valid form.
      if (method === "elicitation/create" && !acp.CreateElicitationRequest.isForm(message.params as acp.CreateElicitationRequest)) {
        this.problems.push({ line, problem: "elicitation/create is not a valid form-mode request (weft sends forms only)" });
      }
      this.checkGate(line, method.startsWith("terminal/") ? "terminal" : method, method);
      return;
    }
    const requested = this.clientRequests.get(JSON.stringify(message.id));
    if ("error" in message) {
      this.check(line, "Error", message.error);
    } else if (requested) {
      const definition = RESPONSE_RESULTS[requested];
      if (definition) {
        this.check(line, definition, message.result);
      }
      const created = (message.result as Json | undefined)?.sessionId;
      if (requested === "session/new" && typeof created === "string") {
        this.knownSessions.add(created);
      }
    }
    const sessionId = this.requestSessions.get(JSON.stringify(message.id));
    if (sessionId) {
      this.requestSessions.delete(JSON.stringify(message.id));
      this.inflight.set(sessionId, (this.inflight.get(sessionId) ?? 1) - 1);
    }
  }

  private check(line: string, definition: string, value: unknown): void {
    for (const problem of schemaIssues(definition, value)) {
      this.problems.push({ line, problem: `${definition}: ${problem}` });
    }
  }

  /** A problem when `what` (a method, or an update's kind) needs a capability the client did not advertise. */
  private checkGate(line: string, gate: string, what: string): void {
    const needs = GATES[gate];
    if (needs && !needs.advertised(this.capabilities)) {
      this.problems.push({ line, problem: `${what} sent to a client that did not advertise ${needs.capability}` });
    }
  }

  private checkUpdate(line: string, params: Json): void {
    const sessionId = params.sessionId as string;
    const update = params.update as Json;
    this.checkGate(line, update.sessionUpdate as string, update.sessionUpdate as string);
    if (SESSION_LEVEL_UPDATES.has(update.sessionUpdate as string)) {
      if (!this.knownSessions.has(sessionId)) {
        this.problems.push({ line, problem: `${String(update.sessionUpdate)} arrived before the editor knew the session (before the session/new answer)` });
      }
    } else if ((this.inflight.get(sessionId) ?? 0) <= 0) {
      this.problems.push({ line, problem: "a session/update arrived while no request for its session was in flight" });
    }
    const seen = this.toolCalls.get(sessionId) ?? new Set<string>();
    this.toolCalls.set(sessionId, seen);
    if (update.sessionUpdate === "tool_call") {
      if (seen.has(update.toolCallId as string)) {
        this.problems.push({ line, problem: `tool call id ${String(update.toolCallId)} announced twice in one session` });
      }
      seen.add(update.toolCallId as string);
    } else if (update.sessionUpdate === "tool_call_update" && !seen.has(update.toolCallId as string)) {
      this.problems.push({ line, problem: `tool_call_update for ${String(update.toolCallId)} before its tool_call` });
    }
  }
}
