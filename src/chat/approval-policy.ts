// How `weft chat` answers an agent's permission requests when nobody is at the keyboard (a one-shot
// run): by the kind of tool call, as `--approve reads|edits|all|none` says.

import type * as acp from "@agentclientprotocol/sdk";

export const APPROVAL_POLICIES = ["reads", "edits", "all", "none"] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];

/** Kinds that only look: reading, searching, thinking. */
const READ_KINDS: ReadonlySet<acp.ToolKind> = new Set(["read", "search", "think"]);
/** Kinds that change files in the project, beyond the reads. */
const EDIT_KINDS: ReadonlySet<acp.ToolKind> = new Set(["edit", "delete", "move"]);

/** Whether `policy` lets a tool call of `kind` run (no kind counts as "other", allowed only by `all`). */
export function policyAllows(policy: ApprovalPolicy, kind: acp.ToolKind | undefined): boolean {
  switch (policy) {
    case "all":
      return true;
    case "none":
      return false;
    case "reads":
      return kind !== undefined && READ_KINDS.has(kind);
    case "edits":
      return kind !== undefined && (READ_KINDS.has(kind) || EDIT_KINDS.has(kind));
  }
}

/** What each policy allows, in words, for a rejection the model is told of. */
const ALLOWS: Record<ApprovalPolicy, string> = {
  reads: "only reading and searching",
  edits: "reading, searching and changing files, but no commands or other tools",
  all: "every tool call",
  none: "no tool call that needs approval",
};

/**
 * Why `policy` rejected a call, for the agent to tell its model (weft's agent does, from the
 * answer's POLICY_META): which policy, that nobody was asked, and what it allows.
 */
export function policyReason(policy: ApprovalPolicy): string {
  return `weft chat --approve ${policy} answered for this unattended run, which allows ${ALLOWS[policy]}.`;
}

/**
 * The answer to a permission request: an allow or a reject, always the "once" option where the
 * agent offers one, so an unattended run never leaves a standing grant (or ban) behind it. With no
 * option of the wanted sort, the request is cancelled, which an agent must take as a no.
 */
export function policyOutcome(allow: boolean, options: readonly acp.PermissionOption[]): acp.RequestPermissionOutcome {
  const wanted: acp.PermissionOptionKind[] = allow ? ["allow_once", "allow_always"] : ["reject_once", "reject_always"];
  for (const kind of wanted) {
    const option = options.find((candidate) => candidate.kind === kind);
    if (option) {
      return { outcome: "selected", optionId: option.optionId };
    }
  }
  return { outcome: "cancelled" };
}
