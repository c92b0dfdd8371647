// A session's view of its project's permission ledger: which grant answers a tool call, writing
// the person's "always" answers, and listing and revoking grants (the `/permissions` command). The
// grants live in the session store, per project directory, when the store has a ledger; else in
// this session while it is open. Reading fails closed: a ledger that cannot be read answers no
// call, and the person is asked.

import type { ToolApprovalRequest } from "../../agent/tool-approval.js";
import type { Logger } from "../../types/logger.js";
import { type AcpGrant, answeringGrant, checkGrants, WHOLE_TOOL, withGrant, withoutGrant } from "../record/permission-grants.js";
import type { AcpSessionStore } from "../record/session-store.js";

/** What the ledger says about a call: a grant answers it, none does, or the ledger could not be read. */
export type LedgerAnswer = { found: "grant"; grant: AcpGrant } | { found: "none" } | { found: "unreadable"; error: unknown };

export class PermissionLedger {
  /** The grants of a store without a ledger: this session's, while it is open. */
  private local: AcpGrant[] = [];

  constructor(
    private readonly store: AcpSessionStore,
    /** The project directory: the session's `cwd`. */
    readonly cwd: string,
    private readonly logger: Logger,
  ) {}

  /** True when the store keeps the grants for the project, beyond this session. */
  get kept(): boolean {
    return typeof this.store.grants === "function" && typeof this.store.putGrant === "function" && typeof this.store.deleteGrant === "function";
  }

  /** The project's grants, oldest first. Throws when they cannot be read. */
  async list(): Promise<AcpGrant[]> {
    if (!this.kept) {
      return this.local.slice();
    }
    return checkGrants(await this.store.grants?.(this.cwd), this.cwd);
  }

  /** The grant that answers `request`, if one does; `unreadable` (logged) when the ledger cannot be read. */
  async lookup(request: Pick<ToolApprovalRequest, "toolName" | "scope">): Promise<LedgerAnswer> {
    let grants: AcpGrant[];
    try {
      grants = await this.list();
    } catch (error) {
      this.logger.warn("The permission ledger could not be read; the person is asked", { cwd: this.cwd, error: String(error) });
      return { found: "unreadable", error };
    }
    const grant = answeringGrant(grants, request);
    return grant ? { found: "grant", grant } : { found: "none" };
  }

  /**
   * Keeps the person's "always" answer to `request` for its scope (the whole tool for a tool
   * without scopes). A call that can have no scope gets no grant. A failed write is logged: the
   * person is asked again next time.
   */
  async grant(request: Pick<ToolApprovalRequest, "toolName" | "scope">, allow: boolean): Promise<void> {
    if (request.scope === false) {
      return;
    }
    const grant: AcpGrant = {
      tool: request.toolName,
      scope: request.scope?.key ?? WHOLE_TOOL,
      label: request.scope?.label ?? request.toolName,
      allow,
      grantedAt: new Date().toISOString(),
    };
    try {
      if (this.kept) {
        await this.store.putGrant?.(this.cwd, grant);
      } else {
        this.local = withGrant(this.local, grant);
      }
    } catch (error) {
      this.logger.warn("Could not keep a permission grant", { cwd: this.cwd, tool: grant.tool, scope: grant.scope, error: String(error) });
    }
  }

  /** Removes a grant. Throws when the store cannot. */
  async revoke(grant: Pick<AcpGrant, "tool" | "scope">): Promise<void> {
    if (this.kept) {
      await this.store.deleteGrant?.(this.cwd, grant.tool, grant.scope);
    } else {
      this.local = withoutGrant(this.local, grant.tool, grant.scope);
    }
  }
}
