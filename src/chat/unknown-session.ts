// What chat says when the agent has no session by the id it was asked to reopen: ACP's answer,
// -32002 "Resource not found", names neither the session nor where it was looked for.

import * as acp from "@agentclientprotocol/sdk";

import { shellWord } from "./shell-word.js";

/** Whether a session/load or session/resume failed because the agent has no such session. */
export function isUnknownSession(error: unknown): boolean {
  return error instanceof acp.RequestError && error.code === -32002;
}

/**
 * The sentence for a session the agent does not have, in `cwd`; `name` when the id came from a
 * name an earlier one-shot run gave it (the agent's store may have been removed since).
 */
export function unknownSessionMessage(sessionId: string, cwd: string, name?: string): string {
  const named = name === undefined ? "" : ` (the session named ${JSON.stringify(name)} here)`;
  return `no session ${sessionId}${named} in ${cwd}; weft chat --list${cwd === process.cwd() ? "" : ` --cwd ${shellWord(cwd)}`} shows the sessions there`;
}
