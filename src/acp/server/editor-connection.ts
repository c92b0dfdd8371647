// The editor's side as the editor bridge sees it, across every connection of one server: a request
// about a session goes to the connections that session is open in, any other to the newest
// connection. Typed as AcpConnection declares it, with no casts.

import type { ClientRequestMethod, ClientRequestParamsByMethod, ClientRequestResponsesByMethod } from "@agentclientprotocol/sdk";

import type { Principal } from "../../types/principal.js";
import type { AcpClientCapabilities, AcpConnection, AcpNotice } from "../editor-bridge.js";
import type { AcpSessionInfo } from "../record/session-store.js";
import type { OpenSessions } from "./open-sessions.js";

export class EditorConnection implements AcpConnection {
  constructor(
    private readonly sessions: OpenSessions,
    private readonly roots: ((principal: Principal | undefined) => readonly string[]) | undefined,
  ) {}

  request<Method extends ClientRequestMethod>(method: Method, params: ClientRequestParamsByMethod[Method], signal?: AbortSignal): Promise<ClientRequestResponsesByMethod[Method]>;
  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    const sessionId = sessionIdOf(params);
    const target = sessionId === undefined ? undefined : this.sessions.get(sessionId)?.clients;
    const requestOptions = signal ? { cancellationSignal: signal, stopWaitingOnCancel: true } : undefined;
    if (target) {
      return target.request(method, params, requestOptions);
    }
    const link = this.sessions.latest();
    return link ? link.client.request(method, params, requestOptions) : Promise.reject(new Error("No editor is connected."));
  }

  capabilities(): AcpClientCapabilities {
    return this.sessions.latest()?.capabilities() ?? {};
  }

  session(sessionId: string): AcpSessionInfo | undefined {
    return this.sessions.get(sessionId)?.info;
  }

  bounds(sessionId: string): readonly string[] | undefined {
    const session = this.sessions.get(sessionId);
    return session && this.roots?.(session.principal);
  }

  async notify(sessionId: string, text: string): Promise<void> {
    await this.sessions.get(sessionId)?.say(text);
  }

  async notice(sessionId: string, notice: AcpNotice): Promise<boolean> {
    return this.sessions.get(sessionId)?.notice(notice) ?? false;
  }
}

/** The session a request's params name, if they name one. */
function sessionIdOf(params: unknown): string | undefined {
  if (typeof params === "object" && params !== null && "sessionId" in params && typeof params.sessionId === "string") {
    return params.sessionId;
  }
  return undefined;
}
