// A project's standing answers to permission requests: each allows (or rejects) the calls of one
// tool within one scope, such as run_command's `npm test …` or edit_file's `src/`. Grants are plain
// data, checked whenever they are read: a ledger that is not a list of grants cannot be trusted.

import type { ToolApprovalRequest } from "../../agent/tool-approval.js";
import { WeftError } from "../../errors/weft-error.js";

/** The scope of a grant that covers a whole tool (one without scopes of its own). */
export const WHOLE_TOOL = "*";

/** A person's standing answer for a project. */
export interface AcpGrant {
  /** The tool it answers for. */
  tool: string;
  /** The scope's key (see `Tool.approvalScope`), or WHOLE_TOOL. */
  scope: string;
  /** The scope in words, as the person chose it ("`npm test …`", "edits in `src/`"). */
  label: string;
  /** True to always allow, false to always reject. */
  allow: boolean;
  /** ISO-8601 time it was given. */
  grantedAt: string;
}

/** A ledger's value that is not a list of grants. */
export class CorruptLedgerError extends WeftError {
  static override readonly errorName = "CorruptLedgerError";

  constructor(readonly cwd: string) {
    super("corrupt_ledger", `The permission grants kept for ${cwd} are not readable.`);
  }
}

/** `value` as a list of grants; throws CorruptLedgerError when any part of it is not one. */
export function checkGrants(value: unknown, cwd: string): AcpGrant[] {
  if (!Array.isArray(value) || !value.every(isGrant)) {
    throw new CorruptLedgerError(cwd);
  }
  return value.map((grant: AcpGrant) => ({ tool: grant.tool, scope: grant.scope, label: grant.label, allow: grant.allow, grantedAt: grant.grantedAt }));
}

function isGrant(value: unknown): value is AcpGrant {
  if (typeof value !== "object" || value === null) {
    return false;
  }
  const grant = value as Record<string, unknown>;
  return (
    typeof grant.tool === "string" &&
    grant.tool !== "" &&
    typeof grant.scope === "string" &&
    grant.scope !== "" &&
    typeof grant.label === "string" &&
    typeof grant.allow === "boolean" &&
    typeof grant.grantedAt === "string"
  );
}

/** The scopes whose grants cover a call: its own and the broader ones, the whole tool for a tool without scopes, none for a call that can have none. */
export function coveringScopes(request: Pick<ToolApprovalRequest, "scope">): string[] {
  if (request.scope === undefined) {
    return [WHOLE_TOOL];
  }
  if (request.scope === false) {
    return [];
  }
  return [request.scope.key, ...(request.scope.within ?? [])];
}

/**
 * The grant that answers a call, if one does. A rejection wins over an allow; a rejection of the
 * whole tool covers every call of it, even one with a scope (or none), while an allow of the whole
 * tool covers only a tool without scopes.
 */
export function answeringGrant(grants: readonly AcpGrant[], request: Pick<ToolApprovalRequest, "toolName" | "scope">): AcpGrant | undefined {
  const scopes = coveringScopes(request);
  const matching = grants.filter((grant) => grant.tool === request.toolName && (scopes.includes(grant.scope) || (grant.scope === WHOLE_TOOL && !grant.allow)));
  return matching.find((grant) => !grant.allow) ?? matching[0];
}

/** `grants` with `grant` in place of any for the same tool and scope. */
export function withGrant(grants: readonly AcpGrant[], grant: AcpGrant): AcpGrant[] {
  return [...grants.filter((other) => other.tool !== grant.tool || other.scope !== grant.scope), grant];
}

/** `grants` without the one for `tool` and `scope`. */
export function withoutGrant(grants: readonly AcpGrant[], tool: string, scope: string): AcpGrant[] {
  return grants.filter((grant) => grant.tool !== tool || grant.scope !== scope);
}
