// `/permissions`: the project's permission grants ("always" answers), numbered, and
// `/permissions revoke <n>` to take one back, so the next such call is asked about again.

import type { AcpGrant } from "../acp/record/permission-grants.js";
import type { AcpCommand, AcpCommandCall } from "../acp/surface/slash-commands.js";

/** The `/permissions` command of the coding agent. */
export function permissionsCommand(): AcpCommand {
  return {
    name: "permissions",
    description: "List this project's always-allow and always-reject answers; `revoke <n>` takes one back.",
    hint: "revoke <n>",
    run: async (call) => {
      const words = call.input.split(/\s+/).filter((word) => word !== "");
      if (words.length === 0) {
        return { reply: listing(await call.permissions.list(), call) };
      }
      const [verb, number, ...rest] = words;
      if (verb !== "revoke" || number === undefined || rest.length > 0 || !/^[1-9][0-9]*$/.test(number)) {
        return { reply: "Use `/permissions` to list this project's answers, or `/permissions revoke <n>` to take answer n back." };
      }
      // Numbers are those of the listing as it is now: read again, so a grant another session added does not shift them unseen.
      const grants = await call.permissions.list();
      const grant = grants[Number(number) - 1];
      if (!grant) {
        return { reply: `There is no answer ${number}. ${listing(grants, call)}` };
      }
      await call.permissions.revoke(grant);
      return { reply: `Revoked: ${describe(grant)}. Such calls are asked about again.` };
    },
  };
}

/** The grants, numbered, as the reply shows them. */
function listing(grants: readonly AcpGrant[], call: AcpCommandCall): string {
  const where = call.permissions.kept ? `in ${call.session.cwd}` : "in this session (this agent's store keeps none for the project)";
  if (grants.length === 0) {
    return `No always-allow or always-reject answers ${where}.`;
  }
  const lines = grants.map((grant, index) => `${index + 1}. ${describe(grant)}`);
  return [`Answers ${where}:`, ...lines, "", "`/permissions revoke <n>` takes one back."].join("\n");
}

/** "Always allow run_command: `npm test …`". */
function describe(grant: AcpGrant): string {
  const answer = grant.allow ? "Always allow" : "Always reject";
  return grant.label === grant.tool ? `${answer} ${grant.tool}` : `${answer} ${grant.tool}: ${grant.label}`;
}
