// `weft chat --url URL [--token TOKEN] [--header "Name: value"]…`: the remote agent those flags
// name, or a usage error saying what is wrong with them.

import { MemoryAcpCookieStore } from "@agentclientprotocol/sdk/experimental/http-client";

import type { RemoteAgentTarget } from "../chat/agent-link.js";
import { shown } from "../chat/connection-failure.js";
import { UsageError } from "./config.js";

const SCHEMES = ["http:", "https:", "ws:", "wss:"];

/**
 * The target for `url`, sending `token` (from --token or WEFT_TOKEN) as a bearer token and each
 * `--header` as given; `key` names the agent in the sessions file. A token given with --token
 * and an Authorization header both is a usage error; one from WEFT_TOKEN gives way to the header.
 */
export function remoteAgentTarget(url: string, token: string | undefined, headerFlags: readonly string[], tokenFlag: boolean): { target: RemoteAgentTarget; key: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url ${JSON.stringify(url)} is not a URL (e.g. https://host/acp or wss://host/acp)`);
  }
  if (!SCHEMES.includes(parsed.protocol)) {
    throw new UsageError(`--url must start with http://, https://, ws:// or wss://, not ${parsed.protocol}//`);
  }
  const headers: Record<string, string> = {};
  for (const flag of headerFlags) {
    const colon = flag.indexOf(":");
    const name = colon > 0 ? flag.slice(0, colon).trim() : "";
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(`--header ${JSON.stringify(flag)} is not "Name: value"`);
    }
    headers[name] = flag.slice(colon + 1).trim();
  }
  const authorization = Object.keys(headers).find((name) => name.toLowerCase() === "authorization");
  if (token !== undefined && token.trim() !== "") {
    if (authorization !== undefined && tokenFlag) {
      throw new UsageError("--token and --header Authorization cannot be used together");
    }
    if (authorization === undefined) {
      headers.Authorization = `Bearer ${token.trim()}`;
    }
  } else if (tokenFlag) {
    throw new UsageError("--token needs a token");
  }
  return { target: { url: parsed, headers, cookieStore: new MemoryAcpCookieStore() }, key: shown(parsed) };
}
