// How interactive `weft chat` opens once its agent is connected: what it says in initialize, the
// agent's sessions for `--list` and /sessions, and the header, with `--resume`'s session reopened
// and replayed under it.

import * as acp from "@agentclientprotocol/sdk";

import type { AgentTarget } from "./agent-link.js";
import { ChatSessions } from "./chat-sessions.js";
import type { ChatSession } from "./chat-session.js";
import type { SessionSurface } from "./chat-state.js";
import type { ChatView } from "./chat-view.js";
import type { Style } from "./render-updates.js";
import { sessionListLines } from "./session-list.js";
import { sessionModel } from "./session-model.js";
import { isUnknownSession, unknownSessionMessage } from "./unknown-session.js";
import { wrapWords } from "./wrap-words.js";

/** What chat tells the agent in initialize: it answers fs/* and terminal/* requests and forms, and shows compactions. */
export function chatInitialize(version: string): acp.InitializeRequest {
  return {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, elicitation: { form: {} }, session: { compaction: {} } },
    clientInfo: { name: "weft-chat", title: "weft chat", version },
  };
}

/** Where the sessions are listed, and how: which one-shot runs' sessions are left out (see ChatOptions). */
export interface SessionListing {
  cwd: string;
  all?: boolean | undefined;
  agentKey?: string | undefined;
  sessionsFile?: string | undefined;
}

/** The lines listing the agent's sessions here (session-list.ts); undefined when it cannot list them. */
export async function listSessions(agent: acp.ClientConnection["agent"], init: acp.InitializeResponse, listing: SessionListing, style: Style): Promise<string[] | undefined> {
  if (!init.agentCapabilities?.sessionCapabilities?.list) {
    return undefined;
  }
  const sessions: acp.SessionInfo[] = [];
  let cursor: string | undefined;
  // Page on (within reason): the sessions left out of the list must not crowd out the rest.
  for (let page = 0; page < 20; page++) {
    const answer = await agent.request(acp.methods.agent.session.list, { cwd: listing.cwd, ...(cursor === undefined ? {} : { cursor }) });
    sessions.push(...answer.sessions);
    cursor = answer.nextCursor ?? undefined;
    if (cursor === undefined) {
      break;
    }
  }
  const runs = listing.sessionsFile && listing.agentKey ? new ChatSessions(listing.sessionsFile).startedByRuns(listing.cwd, listing.agentKey) : new Map();
  return sessionListLines(sessions, runs, { all: Boolean(listing.all), style, now: new Date() });
}

/** `--list`: writes the lines of `listSessions` (or says why there are none); resolves with the exit code. */
export function printSessionList(lines: string[] | undefined, name: string, cwd: string, write: (text: string) => void): number {
  if (lines === undefined) {
    write(`${name} cannot list its sessions.\n`);
    return 1;
  }
  if (lines.length === 0) {
    write(`No sessions in ${cwd}.\n`);
  }
  for (const line of lines) {
    write(`${line}\n`);
  }
  return 0;
}

export interface ChatOpening {
  view: Pick<ChatView, "write" | "style" | "renderer" | "columns">;
  session: ChatSession;
  surface: SessionSurface;
  init: acp.InitializeResponse;
  /** The agent's name, as its replies are labelled. */
  name: string;
  agent: AgentTarget;
  cwd: string;
  /** The session to reopen, if any. */
  resume?: string | undefined;
}

/** Shows the header and, with `resume`, reopens that session under it. Undefined to go on; else the exit code. */
export async function openChat({ view, session, surface, init, name, agent, cwd, resume }: ChatOpening): Promise<number | undefined> {
  const { write, style, renderer, columns } = view;
  const keys = "Ctrl-C cancels a turn; Ctrl-C twice or Ctrl-D leaves; /help lists commands.";
  // The header names the agent (its version too), the server it is reached at, and, once a
  // session is open, the model it answers with.
  const agentVersion = init.agentInfo?.version ? ` ${init.agentInfo.version}` : "";
  const server = "url" in agent ? ` at ${agent.url.origin}${agent.url.pathname}` : "";
  const header = `${name}${agentVersion}${server} in ${cwd}`;
  if (!resume) {
    write(style.dim(`${wrapWords(`${header}. ${keys}`, columns())}\n`));
    return undefined;
  }
  if (!init.agentCapabilities?.loadSession) {
    write(`${name} cannot reopen sessions.\n`);
    return 1;
  }
  // The header first, then the conversation as the agent replays it.
  write(style.dim(`${wrapWords(`${header} (session ${resume}). ${keys}`, columns())}\n`));
  let loaded: acp.LoadSessionResponse;
  try {
    loaded = await session.reopen(resume);
  } catch (error) {
    if (!isUnknownSession(error)) {
      throw error;
    }
    write(style.red(`weft chat: ${unknownSessionMessage(resume, cwd)}\n`));
    return 1;
  }
  renderer.breakLine();
  const model = sessionModel(surface.configOptions, loaded);
  if (model !== undefined) {
    write(style.dim(`model ${model}\n`));
  }
  return undefined;
}
