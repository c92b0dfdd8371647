// The usage line `weft chat` shows after a turn: how full the agent's context window is and what
// the session has cost so far, from the agent's `usage_update`.

import type * as acp from "@agentclientprotocol/sdk";

/** "12.3k / 128k tokens (10%) · $0.0042", or "" when the agent sent no usage. */
export function statusLine(usage: acp.UsageUpdate | undefined): string {
  if (!usage) {
    return "";
  }
  const percent = usage.size > 0 ? Math.round((usage.used / usage.size) * 100) : 0;
  const parts = [`${tokens(usage.used)} / ${tokens(usage.size)} tokens (${percent}%)`];
  if (usage.cost) {
    parts.push(money(usage.cost.amount, usage.cost.currency));
  }
  return parts.join(" · ");
}

function tokens(count: number): string {
  if (count < 1000) {
    return String(count);
  }
  const thousands = count / 1000;
  return `${thousands < 100 ? Number(thousands.toFixed(1)) : Math.round(thousands)}k`;
}

function money(amount: number, currency: string): string {
  const digits = amount < 1 ? 4 : 2;
  return currency === "USD" ? `$${amount.toFixed(digits)}` : `${amount.toFixed(digits)} ${currency}`;
}
