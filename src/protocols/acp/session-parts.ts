// The parts of an open session (its record and writes, its updates, how its tool calls look, how it
// asks for permission), made from what every session of one connection shares.

import { type AgentContext, methods } from "@agentclientprotocol/sdk";

import type { Logger } from "../../types/logger.js";
import type { ProtocolGraph } from "../shared.js";
import type { AcpEditorBridge } from "./editor-bridge.js";
import { requestPermission } from "./permissions.js";
import type { AcpSessionRecord, AcpSessionStore } from "./session-store.js";
import { StoredSession } from "./stored-session.js";
import type { LineSink } from "./streams.js";
import { type AcpToolKind, ToolCallIds } from "./tool-calls.js";
import { Transcript } from "./transcript.js";
import type { TurnParts, TurnSettings } from "./turn.js";
import { UpdateSink } from "./update-sink.js";

/** What every session of one connection shares. */
export interface SessionServices {
  graph: ProtocolGraph;
  /** The editor's side of the connection: updates and permission requests go to it. */
  client: AgentContext;
  /** The connection's output, for a replay's lines (see UpdateSink.sendAll). */
  lines?: LineSink | undefined;
  store: AcpSessionStore;
  editor: AcpEditorBridge | undefined;
  logger: Logger;
  /** How tool calls are shown: their kinds, and the most characters of their output. */
  kind: (name: string, args: unknown) => AcpToolKind;
  contentLimit: number;
  settings: TurnSettings;
}

/** The parts of the session `record` opens. */
export function sessionParts(services: SessionServices, record: AcpSessionRecord): TurnParts {
  const { client, logger } = services;
  const sessionId = record.info.id;
  return {
    graph: services.graph,
    session: new StoredSession(services.store, record, logger),
    updates: new UpdateSink(sessionId, (notification) => client.notify(methods.client.session.update, notification), logger, services.lines),
    transcript: new Transcript(),
    view: { cwd: record.info.cwd, ids: new ToolCallIds(), kind: services.kind, contentLimit: services.contentLimit },
    askPermission: (toolCall, toolName, signal) => requestPermission(client, sessionId, toolCall, toolName, signal),
    notices: async () => (await services.editor?.takeNotices?.(sessionId)) ?? [],
    logger,
    settings: services.settings,
  };
}
