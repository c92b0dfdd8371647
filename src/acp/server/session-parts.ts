// The parts of an open session (its record and writes, its updates, its config values, commands,
// usage and title, how its tool calls look, how it asks for permission and fills in forms), made
// from what every session of one connection shares.

import { methods } from "@agentclientprotocol/sdk";

import type { Logger } from "../../types/logger.js";
import type { ProtocolGraph } from "../../graph/protocol-graph.js";
import type { ConfigOptions } from "../surface/config-options.js";
import type { AcpClientCapabilities, AcpEditorBridge } from "../editor-bridge.js";
import { requestForm } from "../asking/elicitation.js";
import { HeldUpdates } from "../session/held-updates.js";
import { shownBeside } from "../mapping/notices.js";
import { PermissionLedger } from "../asking/permission-ledger.js";
import { requestPermission } from "../asking/permissions.js";
import type { SessionClient } from "../session/session-clients.js";
import { SessionCommands } from "../surface/session-commands.js";
import { SessionConfig } from "../surface/session-config.js";
import type { AcpSessionRecord, AcpSessionStore } from "../record/session-store.js";
import { type AcpTitle, SessionTitle } from "../surface/session-title.js";
import { SessionUsage } from "../surface/session-usage.js";
import type { AcpCommands } from "../surface/slash-commands.js";
import { StoredSession } from "../session/stored-session.js";
import { type AcpToolKind, ToolCallIds } from "../mapping/tool-calls.js";
import { Transcript } from "../turn/transcript.js";
import type { TurnInputs, TurnSettings } from "../turn/turn.js";
import { UpdateSink } from "../session/update-sink.js";
import type { AcpUsageOptions } from "../surface/usage.js";

/** What a session is made with: what every session shares, and the connections it is open in. */
export interface SessionServices {
  graph: ProtocolGraph;
  /** The editors the session is open in: updates, permission requests and forms go to them. */
  client: SessionClient;
  /** What the editor said it can do, in `initialize`. */
  capabilities: () => AcpClientCapabilities;
  store: AcpSessionStore;
  editor: AcpEditorBridge | undefined;
  logger: Logger;
  /** How tool calls are shown: their kinds, and the most characters of their output. */
  kind: (name: string, args: unknown) => AcpToolKind;
  contentLimit: number;
  /** The config options and modes sessions offer. */
  configOptions: ConfigOptions;
  /** Whether the editor shows boolean config options (it said so in `initialize`). */
  booleanOptions: () => boolean;
  /** The slash commands sessions offer, if any. */
  commands: AcpCommands | undefined;
  /** How usage is counted and shown, if it is. */
  usage: AcpUsageOptions | undefined;
  /** The integrator's title(), if any. */
  title: AcpTitle | undefined;
  /** Aborts when the connection closes (for work a session starts outside its turns). */
  closing: AbortSignal;
  settings: TurnSettings;
}

/**
 * An open session's parts, as its coordinator (live-session.ts) holds them: what its turns work
 * with (each job of a turn takes only what it uses; see TurnInputs), and the session's own keepers.
 */
export interface SessionParts extends TurnInputs {
  /** The session's record: its one owner, and its writes. */
  session: StoredSession;
  /** Where the session's updates go. */
  updates: UpdateSink;
  /** Where updates about the session itself go: held until the editor knows the session. */
  held: HeldUpdates;
  /** The session's config values and mode, which its runs see. */
  config: SessionConfig;
  /** The session's slash commands. */
  commands: SessionCommands;
  /** What the session's model calls used and cost. */
  usage: SessionUsage;
  /** The session's title. */
  title: SessionTitle;
  /** The project's permission grants. */
  ledger: PermissionLedger;
}

/** The parts of the session `record` opens. */
export function sessionParts(services: SessionServices, record: AcpSessionRecord): SessionParts {
  const { client, logger } = services;
  const sessionId = record.info.id;
  const session = new StoredSession(services.store, record, logger);
  const updates = new UpdateSink(sessionId, (notification) => client.notify(methods.client.session.update, notification), logger);
  const held = new HeldUpdates(updates);
  const config = new SessionConfig(services.configOptions, session, held, services.booleanOptions);
  const ledger = new PermissionLedger(services.store, record.info.cwd, logger);
  const commands = new SessionCommands(services.commands, session, config, held, logger, ledger);
  const usage = new SessionUsage(services.usage, session, config, held, logger);
  config.onChange(() => {
    commands.refresh();
    usage.configChanged();
  });
  return {
    graph: services.graph,
    session,
    updates,
    held,
    config,
    commands,
    usage,
    title: new SessionTitle(session, held, services.title, logger, services.closing, () => config.values()),
    transcript: new Transcript(),
    view: { cwd: record.info.cwd, ids: new ToolCallIds(), kind: services.kind, contentLimit: services.contentLimit, shows: () => shownBeside(services.capabilities()) },
    ledger,
    askPermission: (toolCall, toolName, signal, offer) => requestPermission(client, sessionId, toolCall, toolName, signal, offer),
    showsForms: () => Boolean(services.capabilities().elicitation?.form),
    askForm: (form, signal) => requestForm(client, sessionId, form, signal),
    notices: async () => (await services.editor?.takeNotices?.(sessionId)) ?? [],
    logger,
    settings: services.settings,
  };
}
