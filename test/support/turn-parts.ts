// The parts a session's turns work with, made of real pieces (a StoredSession over a real session
// store, an UpdateSink, a Transcript) whose editor end is a plain recorder: the updates sent, the
// permissions asked and the forms shown, with answers a test chooses. For unit tests of turns
// without a wire.

import type * as acp from "@agentclientprotocol/sdk";

import { ConfigOptions } from "../../src/acp/surface/config-options.js";
import type { FormOutcome, FormRequest } from "../../src/acp/asking/elicitation.js";
import { HeldUpdates } from "../../src/acp/session/held-updates.js";
import type { PermissionChoice, PermissionOffer } from "../../src/acp/asking/permissions.js";
import { PermissionLedger } from "../../src/acp/asking/permission-ledger.js";
import { SessionCommands } from "../../src/acp/surface/session-commands.js";
import { SessionConfig } from "../../src/acp/surface/session-config.js";
import { type AcpSessionRecord, type AcpSessionStore, MemoryAcpSessionStore } from "../../src/acp/record/session-store.js";
import { type AcpTitle, SessionTitle } from "../../src/acp/surface/session-title.js";
import { SessionUsage } from "../../src/acp/surface/session-usage.js";
import type { AcpCommands } from "../../src/acp/surface/slash-commands.js";
import { StoredSession } from "../../src/acp/session/stored-session.js";
import { ToolCallIds } from "../../src/acp/mapping/tool-calls.js";
import { Transcript } from "../../src/acp/turn/transcript.js";
import type { SessionParts } from "../../src/acp/server/session-parts.js";
import type { TurnSettings } from "../../src/acp/turn/turn.js";
import { UpdateSink } from "../../src/acp/session/update-sink.js";
import type { AcpUsageOptions } from "../../src/acp/surface/usage.js";
import type { ProtocolGraph } from "../../src/graph/protocol-graph.js";
import type { Logger } from "../../src/types/logger.js";

export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields: Record<string, unknown> | undefined;
}

export interface TestParts {
  parts: SessionParts;
  store: AcpSessionStore;
  /** The session as the store now has it. */
  stored(): Promise<AcpSessionRecord | undefined>;
  updates: acp.SessionUpdate[];
  asked: Array<{ toolCall: acp.ToolCallUpdate; toolName: string }>;
  /** What each permission request offered beyond the four options, in order. */
  offers: PermissionOffer[];
  /** The forms shown, in order. */
  forms: FormRequest[];
  logs: LogLine[];
  /** The text of the agent's message chunks sent so far. */
  text(): string;
}

export interface TestPartsOptions {
  store?: AcpSessionStore | undefined;
  record?: AcpSessionRecord | undefined;
  settings?: Partial<TurnSettings> | undefined;
  /** The person's answer to each permission request; allow once by default. */
  answer?: ((toolCall: acp.ToolCallUpdate, toolName: string, offer: PermissionOffer) => PermissionChoice | Promise<PermissionChoice>) | undefined;
  /** The person's answer to each form; when set, the editor shows forms. */
  form?: ((form: FormRequest) => FormOutcome | Promise<FormOutcome>) | undefined;
  notices?: string[] | undefined;
  /** The config options and modes the session offers; none by default. */
  configOptions?: ConfigOptions | undefined;
  /** The slash commands, usage options and title() of the session; none by default. */
  commands?: AcpCommands | undefined;
  usage?: AcpUsageOptions | undefined;
  title?: AcpTitle | undefined;
}

export function newRecord(sessionId = "sess_1"): AcpSessionRecord {
  return { info: { id: sessionId, cwd: "/project", mcpServers: [] }, history: [], always: [], updatedAt: new Date().toISOString() };
}

export function testParts(graph: ProtocolGraph, options: TestPartsOptions = {}): TestParts {
  const logs: LogLine[] = [];
  const at = (level: LogLine["level"]) => (message: string, fields?: Record<string, unknown>) => void logs.push({ level, message, fields });
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  const store = options.store ?? new MemoryAcpSessionStore();
  const record = options.record ?? newRecord();
  const updates: acp.SessionUpdate[] = [];
  const asked: TestParts["asked"] = [];
  const forms: FormRequest[] = [];
  const offers: PermissionOffer[] = [];
  const notices = options.notices ? [...options.notices] : [];
  const session = new StoredSession(store, record, logger);
  const sink = new UpdateSink(record.info.id, async (notification) => void updates.push(notification.update), logger);
  const held = new HeldUpdates(sink);
  const config = new SessionConfig(options.configOptions ?? new ConfigOptions(), session, held, () => true);
  const ledger = new PermissionLedger(store, record.info.cwd, logger);
  const parts: SessionParts = {
    graph,
    ledger,
    session,
    updates: sink,
    held,
    config,
    commands: new SessionCommands(options.commands, session, config, held, logger, ledger),
    usage: new SessionUsage(options.usage, session, config, held, logger),
    title: new SessionTitle(session, held, options.title, logger, new AbortController().signal),
    transcript: new Transcript(),
    view: { cwd: record.info.cwd, ids: new ToolCallIds(), kind: () => "other", contentLimit: 1000 },
    askPermission: async (toolCall, toolName, _signal, offer = {}) => {
      asked.push({ toolCall, toolName });
      offers.push(offer);
      return options.answer ? options.answer(toolCall, toolName, offer) : { decision: "allow", always: false };
    },
    showsForms: () => options.form !== undefined,
    askForm: async (form) => {
      forms.push(form);
      return options.form ? options.form(form) : { action: "failed", error: "This editor shows no forms." };
    },
    notices: async () => notices.splice(0),
    logger,
    settings: { principal: undefined, input: undefined, answer: undefined, failures: "error", maxPromptBytes: 1024 * 1024, ...options.settings },
  };
  return {
    parts,
    store,
    stored: async () => store.get(record.info.id),
    updates,
    asked,
    offers,
    forms,
    logs,
    text: () => updates.map((update) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? update.content.text : "")).join(""),
  };
}
