// The options every way of serving a graph over ACP takes (serveAcp over stdio, serveAcpHttp
// remotely): what the agent offers, how its sessions are kept, and how a turn behaves.

import type * as acp from "@agentclientprotocol/sdk";

import type { Logger } from "../../types/logger.js";
import type { Message } from "../../types/messages.js";
import type { Principal } from "../../types/principal.js";
import type { ProtocolInterrupt } from "../../graph/protocol-graph.js";
import type { AcpConfigOption } from "../surface/config-options.js";
import type { AcpContentBlock } from "../mapping/content.js";
import type { AcpEditorBridge } from "../editor-bridge.js";
import type { LineLimits } from "../wire/line-limits.js";
import type { AcpModes } from "../surface/modes.js";
import type { AcpSessionInfo, AcpSessionStore } from "../record/session-store.js";
import type { AcpTitle } from "../surface/session-title.js";
import type { AcpCommands } from "../surface/slash-commands.js";
import type { AcpToolKind } from "../mapping/tool-calls.js";
import type { AcpUsageOptions } from "../surface/usage.js";

/** Options for `serveAcp()`. */
export interface AcpOptions {
  /** The agent's name and version, as the editor shows them. */
  agentInfo?: { name: string; version: string; title?: string | undefined } | undefined;
  /**
   * The graph input for a prompt. Defaults to `{ messages }`: the session's conversation and the
   * prompt, which is what an agent from `createAgent()` takes.
   */
  input?: ((prompt: string, session: AcpSessionInfo, history: Message[], blocks: AcpContentBlock[]) => unknown) | undefined;
  /**
   * The answer the next prompt gives a question that is not a tool approval and was asked as the
   * agent's message (the turn then ends). Defaults to the prompt's text, or `{ action: "reply",
   * text }` (a FormAnswer) for a question with an answer schema. A question with a flat answer
   * schema is asked as a form instead when the editor shows forms (docs/architecture.md).
   */
  answer?: ((prompt: string, interrupt: ProtocolInterrupt) => unknown) | undefined;
  /** What a tool does, for the editor. Defaults to a guess from its name. */
  kind?: ((name: string, args: unknown) => AcpToolKind) | undefined;
  /** Who the agent acts for: the person at the editor. */
  principal?: Principal | undefined;
  /**
   * Where sessions are kept. Defaults to memory; `storeAcpSessions()` keeps them in a long-term store,
   * so an editor reopens a session with `session/load` after the agent restarts. A question the last
   * turn asked is kept too, and so is a turn the agent was in the middle of, which the load carries on.
   */
  sessions?: AcpSessionStore | undefined;
  /** Gives the agent what the editor offers: its files, its terminal, and its MCP servers. */
  editor?: AcpEditorBridge | undefined;
  /**
   * Settings a person picks per session in the editor: the model, the reasoning effort, switches
   * of your own. Each is a select (one value out of a list, flat or in groups) or a boolean, with
   * the value a new session starts with. A session keeps its values in its record, so they come
   * back when it is loaded or resumed; its runs see them as `config` (createAgent's `model` can be a
   * function of it), read again before every step, so a change applies from the next model call.
   * Boolean options are offered only to editors that say they show them; for the others a
   * session keeps the default. See also AcpServer.setConfig, for changes the agent makes itself.
   *
   * A function instead is asked as each session is made, loaded or resumed (so a list that
   * grows, such as a model server's, reaches the next session); it should answer the same array
   * while nothing changes, since each new array is checked again.
   */
  configOptions?: readonly AcpConfigOption[] | (() => readonly AcpConfigOption[] | Promise<readonly AcpConfigOption[]>) | undefined;
  /**
   * The session's modes (such as ask and code), of which it is in one at a time. Offered both as
   * ACP's `modes` and as the config option `mode` of category "mode", since editors read one or
   * the other, and kept the same: the run sees the mode as `config.mode`.
   */
  modes?: AcpModes | undefined;
  /**
   * Slash commands the person can type in the editor (`/review src`): each has a name, a
   * description, an optional hint for its input, and a `run` that answers by itself (a reply, as
   * the agent's message, with no model call), or gives the prompt to run instead, or the graph's
   * input for the turn. A list, or a function of the session and its config (asked again when the
   * config changes, so a mode can have commands of its own). The editor is sent the list once it
   * knows a session, and again when it changes; a prompt starting with `/name` of one of them runs
   * it, and any other prompt (an unknown `/word` too) goes to the graph as always. See also
   * AcpServer.setCommands.
   */
  commands?: AcpCommands | undefined;
  /**
   * How full the context window is and what the session cost, for the editor's usage display:
   * the window of the model in use (per config, such as the model picked) and, optionally, its
   * prices per million tokens. After each model call the editor is sent `usage_update` with the
   * tokens now in the context (that call's input and output, never more than the window) and the
   * session's cost so far, which its record keeps across restarts; after new, load and resume too.
   * Without it (or for a model whose window it does not know) no usage is sent.
   */
  usage?: AcpUsageOptions | undefined;
  /**
   * A new session's title, made from its first prompt (it may ask a model). By default the title
   * is the start of that prompt. Either way the title is kept in the session's record, listed by
   * `session/list` and sent as `session_info_update`; until title() answers, and when it fails
   * (which is logged), the default stands.
   */
  title?: AcpTitle | undefined;
  /** Where to report what happens. Nothing is logged by default; never log to stdout. */
  logger?: Logger | undefined;
  /** The largest prompt accepted, in bytes of JSON. Default 16 MiB; larger ones get -32602. */
  maxPromptBytes?: number | undefined;
  /**
   * The longest line read from the editor (default 64 MiB) and the deepest nesting of arrays and
   * objects in one (default 128), checked before the line is parsed. A line over either gets a
   * JSON-RPC error (with its id, when its top level shows one) and is never read whole; the agent
   * reads on at the next line.
   */
  lineLimits?: Partial<LineLimits> | undefined;
  /** The most characters of one tool call's output shown to the editor. Default 64 KiB. */
  contentLimit?: number | undefined;
  /**
   * Called once the first `initialize` has been answered: the moment to warm up what the first
   * session will need (open the session store, load a model provider) without delaying the answer.
   */
  onInitialized?: (() => void) | undefined;
  /**
   * What a turn whose run fails (a model that cannot be reached, a key that is refused) does:
   * `error` (the default) answers the prompt with a JSON-RPC error and takes the prompt back
   * (unless a tool ran), so the editor can send it again; `message` tells the person what went
   * wrong as the agent's message, keeps both, and ends the turn normally, as an end-user agent
   * should. A prompt that stays keeps its attachments only as notes (see docs/sessions.md).
   */
  failures?: "error" | "message" | undefined;
  /**
   * How a person signs in, as `initialize` lists them. A `terminal` method (the editor runs the
   * agent's own command again, with `args` added, in a terminal) is listed only to editors that
   * say they can (`clientCapabilities.auth.terminal`); any other method is one the editor asks
   * for with `authenticate`, which `authenticate` below answers.
   */
  authMethods?: readonly acp.AuthMethod[] | undefined;
  /**
   * Answers `authenticate` for a method of `authMethods` that is not a terminal one; resolves
   * once the person is signed in. What it throws is the request's error. Without it, such a
   * request gets -32602.
   */
  authenticate?: ((methodId: string) => void | Promise<void>) | undefined;
  /**
   * Whether the person must sign in before a session can start (no model is set up yet, say).
   * While it answers true, `session/new` fails with auth_required (-32000), so the editor offers
   * the methods it was listed; an editor listed none gets its session as usual.
   */
  authRequired?: (() => boolean) | undefined;
}
