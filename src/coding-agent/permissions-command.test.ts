import { describe, expect, it } from "vitest";

import { PermissionLedger } from "../acp/asking/permission-ledger.js";
import { MemoryAcpSessionStore } from "../acp/record/session-store.js";
import type { AcpCommandCall, AcpCommandResult } from "../acp/surface/slash-commands.js";
import type { Logger } from "../types/logger.js";
import { permissionsCommand } from "./permissions-command.js";

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function caller(ledger: PermissionLedger) {
  const command = permissionsCommand();
  return async (input: string): Promise<string> => {
    const call: AcpCommandCall = { input, attachments: [], session: { id: "sess_1", cwd: "/work/project", mcpServers: [] }, config: {}, history: [], signal: new AbortController().signal, permissions: ledger };
    const result: AcpCommandResult = await command.run(call);
    return "reply" in result ? result.reply : "";
  };
}

describe("/permissions", () => {
  it("lists the project's grants numbered, revokes one by number, and says how when the input is not a command it knows", async () => {
    const ledger = new PermissionLedger(new MemoryAcpSessionStore(), "/work/project", quiet);
    await ledger.grant({ toolName: "run_command", scope: { key: "prefix:npm test", label: "`npm test …`" } }, true);
    await ledger.grant({ toolName: "edit_file", scope: { key: "src/", label: "edits in `src/`" } }, false);
    await ledger.grant({ toolName: "fetch" }, true);
    const run = caller(ledger);
    expect(await run("")).toBe(
      [
        "Answers in /work/project:",
        "1. Always allow run_command: `npm test …`",
        "2. Always reject edit_file: edits in `src/`",
        "3. Always allow fetch",
        "",
        "`/permissions revoke <n>` takes one back.",
      ].join("\n"),
    );
    for (const input of ["revoke", "revoke 0", "revoke -1", "revoke 1 2", "revoke one", "forget 1", "revoke 1.5"]) {
      expect(await run(input), input).toContain("Use `/permissions`");
    }
    expect(await run("revoke 4")).toContain("There is no answer 4.");
    expect(await run("  revoke   2 ")).toBe("Revoked: Always reject edit_file: edits in `src/`. Such calls are asked about again.");
    expect((await ledger.list()).map((grant) => grant.tool)).toEqual(["run_command", "fetch"]);
  });

  it("says so when there are none, and when the store keeps them only for the session", async () => {
    expect(await caller(new PermissionLedger(new MemoryAcpSessionStore(), "/work/project", quiet))("")).toBe("No always-allow or always-reject answers in /work/project.");
    const sessionOnly = new PermissionLedger({ get: () => undefined, put: () => undefined }, "/work/project", quiet);
    expect(await caller(sessionOnly)("")).toBe("No always-allow or always-reject answers in this session (this agent's store keeps none for the project).");
  });
});
