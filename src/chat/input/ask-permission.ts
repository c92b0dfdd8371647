// A permission the agent asks for (`session/request_permission`), asked in the terminal: one key
// on a terminal, a typed line otherwise, each offered option under a key of its own.

import type * as acp from "@agentclientprotocol/sdk";

import type { Style } from "../render-updates.js";
import type { ChatInput } from "./chat-input.js";

export interface PermissionAsking {
  input: Pick<ChatInput, "ask" | "askKey">;
  write(text: string): void;
  style: Style;
  /** One key on a terminal; a typed line otherwise. */
  singleKey: boolean;
  /** The turn asking: once Ctrl-C has cancelled it, the answer is "cancelled". */
  turn: { readonly cancelling: boolean };
}

/** Asks which of the offered answers to give, until one is given or the turn is cancelled. */
export async function askPermission(request: acp.RequestPermissionRequest, { input, write, style, singleKey, turn }: PermissionAsking): Promise<acp.RequestPermissionOutcome> {
  const title = request.toolCall.title ?? "this tool call";
  const offered = permissionKeys(request.options);
  const menu = offered.map(({ key, label, option }) => `[${key}] ${label}${coverage(option)}`).join("  ");
  for (;;) {
    if (turn.cancelling) {
      return { outcome: "cancelled" };
    }
    const question = `  ${style.yellow("?")} Allow ${style.bold(title)}?  ${menu}`;
    const answer = singleKey
      ? await input.askKey(question, offered.map(({ key }) => key))
      : (await input.ask(`${question} › `))?.trim().toLowerCase();
    if (answer === undefined || turn.cancelling) {
      return { outcome: "cancelled" };
    }
    const chosen = offered.find(({ key, label }) => answer === key || answer === label.toLowerCase() || (key === "y" && answer === "yes"));
    if (chosen) {
      return { outcome: "selected", optionId: chosen.option.optionId };
    }
    write(style.dim(`  Answer ${offered.map(({ key }) => key).join(", ")}.\n`));
  }
}

/**
 * What an "always allow" option covers, as its name says after "Always allow" (the agent names
 * the scope there: "writes in `src/` and below"), in brackets; nothing for any other option.
 */
function coverage(option: acp.PermissionOption): string {
  const covered = option.kind === "allow_always" ? /^always allow\s+(.+)$/i.exec(option.name.trim())?.[1] : undefined;
  return covered ? ` (${covered})` : "";
}

/**
 * A key for each offered option: y, a, n, v for the first option of each kind (once, always, no,
 * never), and for any other (an agent's "Edit first", say) the first free letter of its name.
 */
function permissionKeys(options: readonly acp.PermissionOption[]): Array<{ key: string; label: string; option: acp.PermissionOption }> {
  const kinds: Record<string, [string, string]> = { allow_once: ["y", "once"], allow_always: ["a", "always"], reject_once: ["n", "no"], reject_always: ["v", "never"] };
  const keys: Array<{ key: string; label: string; option: acp.PermissionOption }> = [];
  const used = new Set<string>();
  const extra: acp.PermissionOption[] = [];
  for (const option of options) {
    const known = kinds[option.kind];
    if (known && !used.has(known[0])) {
      used.add(known[0]);
      keys.push({ key: known[0], label: known[1], option });
    } else {
      extra.push(option);
    }
  }
  for (const option of extra) {
    const key = [...option.name.toLowerCase(), ..."123456789"].find((letter) => /[a-z0-9]/.test(letter) && !used.has(letter));
    if (key) {
      used.add(key);
      keys.push({ key, label: option.name.toLowerCase(), option });
    }
  }
  const order = ["y", "a", "n", "v"];
  return keys.sort((left, right) => (order.includes(left.key) ? order.indexOf(left.key) : 4) - (order.includes(right.key) ? order.indexOf(right.key) : 4));
}
