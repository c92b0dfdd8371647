// The negotiation a connection opens with: what the editor can do (read from its `initialize`,
// less what a remote agent may not use), what the agent offers in return, the sign-in methods it
// lists, and `authenticate` for the ones the editor asks for.

import * as acp from "@agentclientprotocol/sdk";

import type { AcpClientCapabilities } from "../editor-bridge.js";
import type { AcpSessionStore } from "../record/session-store.js";
import type { AcpOptions } from "./acp-options.js";
import type { ConnectionState } from "./connection-state.js";

/** The protocol version this module speaks. */
export const ACP_PROTOCOL_VERSION = 1;

/** What the agent offers in `initialize`. */
export interface InitializeOffer {
  options: Pick<AcpOptions, "agentInfo" | "authMethods" | "editor">;
  /** The graph's name, the agent's when `agentInfo` gives none. */
  name: string;
  /** Listing and deleting are offered when the store can. */
  store: Pick<AcpSessionStore, "list" | "delete">;
}

/** Answers `initialize`, keeping what the editor said in `state`. */
export function answerInitialize(params: acp.InitializeRequest, state: ConnectionState, offer: InitializeOffer): acp.InitializeResponse {
  const { options, store } = offer;
  state.capabilities = readCapabilities(params.clientCapabilities);
  if (state.serving.shared) {
    // Served remotely, the agent works on the server's files: the client's are not its to use.
    state.capabilities = { ...state.capabilities, fs: { readTextFile: false, writeTextFile: false }, terminal: false };
  }
  state.booleanOptions = Boolean(params.clientCapabilities?.session?.configOptions?.boolean);
  const sessionCapabilities: acp.SessionCapabilities = { resume: {}, close: {}, additionalDirectories: {} };
  if (store.list) {
    sessionCapabilities.list = {};
  }
  if (store.delete) {
    sessionCapabilities.delete = {};
  }
  state.listedAuth = (options.authMethods ?? []).filter((method) => !isTerminal(method) || params.clientCapabilities?.auth?.terminal === true);
  return {
    protocolVersion: ACP_PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, audio: true, embeddedContext: true },
      mcpCapabilities: { http: Boolean(options.editor?.mcpCapabilities?.http), sse: Boolean(options.editor?.mcpCapabilities?.sse) },
      sessionCapabilities,
    },
    agentInfo: implementation(options.agentInfo ?? { name: offer.name, version: "0.0.0" }),
    authMethods: state.listedAuth,
  };
}

/** Answers `authenticate`: a listed method that is not a terminal one, through `authenticate`. */
export async function answerAuthenticate(params: acp.AuthenticateRequest, options: Pick<AcpOptions, "authMethods" | "authenticate">): Promise<acp.AuthenticateResponse> {
  const { authenticate } = options;
  const method = options.authMethods?.find((candidate) => candidate.id === params.methodId);
  if (!method || isTerminal(method) || !authenticate) {
    const why = !method ? "is not one of this agent's" : isTerminal(method) ? "is a terminal method, which the editor runs itself" : "cannot be asked for here";
    throw acp.RequestError.invalidParams({ methodId: params.methodId }, `Authentication method ${JSON.stringify(params.methodId)} ${why}.`);
  }
  await authenticate(method.id);
  return {};
}

/** Fails `session/new` with auth_required while the person must sign in with a method the editor was listed. */
export function checkSignedIn(state: ConnectionState, authRequired: AcpOptions["authRequired"]): void {
  if (state.listedAuth.length > 0 && authRequired?.()) {
    throw acp.RequestError.authRequired(undefined, `sign in first (${state.listedAuth.map((method) => method.name).join(", ")})`);
  }
}

/** Whether a sign-in method is one the editor runs in a terminal (never sent to `authenticate`). */
function isTerminal(method: acp.AuthMethod): boolean {
  return "type" in method && method.type === "terminal";
}

function advertised(capability: unknown): boolean {
  return capability !== undefined && capability !== null;
}

function readCapabilities(capabilities: acp.ClientCapabilities | undefined): AcpClientCapabilities {
  const result: AcpClientCapabilities = {
    fs: { readTextFile: Boolean(capabilities?.fs?.readTextFile), writeTextFile: Boolean(capabilities?.fs?.writeTextFile) },
    terminal: Boolean(capabilities?.terminal),
    // `elicitation: {}` alone advertises no mode: forms need `form` itself.
    elicitation: { form: advertised(capabilities?.elicitation?.form) },
    // `{}` advertises each of these; omitted and null do not.
    session: { notices: advertised(capabilities?.session?.notices), compaction: advertised(capabilities?.session?.compaction) },
  };
  return result;
}

/** The agent's name and version as `initialize` sends them: no title key when there is none. */
function implementation(info: NonNullable<AcpOptions["agentInfo"]>): acp.Implementation {
  const result: acp.Implementation = { name: info.name, version: info.version };
  if (info.title !== undefined) {
    result.title = info.title;
  }
  return result;
}
