// The stored form of a project's permission ledger: one item under `ledger`, keyed by a hash of the
// project's directory, holding the directory (so a hash collision is caught) and its grants.

import { createHash } from "node:crypto";

import type { JsonObject, JsonValue } from "../../types/json.js";
import { type AcpGrant, checkGrants, CorruptLedgerError } from "./permission-grants.js";

/** The key of a project's ledger: a hash of its directory, which may hold any character. */
export function ledgerKey(cwd: string): string {
  return createHash("sha256").update(cwd).digest("hex");
}

/** A project's grants as the ledger item keeps them. */
export function encodeLedger(cwd: string, grants: readonly AcpGrant[]): JsonObject {
  return { cwd, grants: grants.map((grant) => ({ tool: grant.tool, scope: grant.scope, label: grant.label, allow: grant.allow, grantedAt: grant.grantedAt })) };
}

/** The grants a ledger item holds; throws CorruptLedgerError when it is not the ledger of `cwd` or not a list of grants. */
export function decodeLedger(value: JsonValue, cwd: string): AcpGrant[] {
  if (typeof value !== "object" || value === null || Array.isArray(value) || value.cwd !== cwd) {
    throw new CorruptLedgerError(cwd);
  }
  return checkGrants(value.grants, cwd);
}
