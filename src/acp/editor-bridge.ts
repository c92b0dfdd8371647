// The seam between serveAcp() and something that uses the editor's connection, such as
// acpEditor(): what the editor can do, a way to ask it things, and the sessions it opened.

import type { ClientRequestMethod, ClientRequestParamsByMethod, ClientRequestResponsesByMethod } from "@agentclientprotocol/sdk";

import type { NoticeSeverity } from "../graph/events.js";
import type { AcpSessionInfo } from "./record/session-store.js";

/** What the editor said it can do for the agent, in `initialize`. */
export interface AcpClientCapabilities {
  /** Reading and writing files through the editor, including ones it has open and unsaved. */
  fs?: { readTextFile?: boolean | undefined; writeTextFile?: boolean | undefined } | undefined;
  /** Running commands in the editor's terminals. */
  terminal?: boolean | undefined;
  /** Asking the person to fill in forms (`elicitation/create` in form mode). */
  elicitation?: { form?: boolean | undefined } | undefined;
  /** What the editor shows of a session beside its turns: notices, and compactions of the conversation. */
  session?: { notices?: boolean | undefined; compaction?: boolean | undefined } | undefined;
}

/** A notice for the person, shown beside the conversation (ACP's `notice` update). */
export interface AcpNotice {
  severity: NoticeSeverity;
  /** Plain text that stands on its own; not empty. */
  title: string;
  description?: string | undefined;
}

/** The connection to the editor, as a bridge sees it. */
export interface AcpConnection {
  /**
   * Asks the editor something, such as `fs/read_text_file`, and resolves with its answer or rejects
   * with its error. For ACP's own methods the params and the answer have the SDK's types; any other
   * method takes and answers `unknown`. A signal that aborts withdraws the request.
   */
  request<Method extends ClientRequestMethod>(method: Method, params: ClientRequestParamsByMethod[Method], signal?: AbortSignal): Promise<ClientRequestResponsesByMethod[Method]>;
  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
  /** What the editor can do, from `initialize`. */
  capabilities(): AcpClientCapabilities;
  /** A session's directory and MCP servers. */
  session(sessionId: string): AcpSessionInfo | undefined;
  /**
   * The directories a session's tools must stay inside, wherever its own directories lead by
   * now: served remotely, the server's roots for the person the session is for; undefined over
   * stdio, where the editor's directories are the session's to use.
   */
  bounds?(sessionId: string): readonly string[] | undefined;
  /** Shows the person a message in a session, outside any turn's reply. */
  notify?(sessionId: string, text: string): Promise<void>;
  /**
   * Shows the person a notice in a session, as a `notice` update once the editor knows the
   * session. Resolves false, sending nothing, when the editor did not advertise notices (or the
   * session is not open): then say it some other way, such as takeNotices.
   */
  notice?(sessionId: string, notice: AcpNotice): Promise<boolean>;
}

/** Something that uses the editor's connection, such as `acpEditor()`. `serveAcp()` attaches it when it starts. */
export interface AcpEditorBridge {
  /**
   * The MCP transports it connects beyond stdio, which the agent tells the editor in `initialize` so
   * the editor offers servers over them too.
   */
  readonly mcpCapabilities?: { http?: boolean | undefined; sse?: boolean | undefined } | undefined;
  /** Receives the connection to the editor. */
  attach(connection: AcpConnection): void;
  /** Called when the editor closes its end, or the server is closed: the place to stop what it started. */
  detach?(): void | Promise<void>;
  /** Called when a session opens (new, load or resume), before its first prompt. */
  openSession?(session: AcpSessionInfo): void | Promise<void>;
  /** Called when a session closes or is deleted. */
  closeSession?(sessionId: string): void | Promise<void>;
  /**
   * Messages for the person (such as an MCP server that failed), shown as the agent's text at the
   * start of the session's next turn: the way to tell an editor that does not show notices.
   */
  takeNotices?(sessionId: string): string[] | Promise<string[]>;
}
