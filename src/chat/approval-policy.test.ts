// The `--approve` policies: which tool call kinds each lets run, and which option answers a request.

import type * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { policyAllows, policyOutcome, policyReason } from "./approval-policy.js";

const kinds: Array<acp.ToolKind | undefined> = ["read", "search", "think", "edit", "delete", "move", "execute", "fetch", "switch_mode", "other", undefined];

describe("approval policies", () => {
  it("reads allows looking only; edits adds changing files; all allows everything; none nothing", () => {
    const allowed = (policy: "reads" | "edits" | "all" | "none") => kinds.filter((kind) => policyAllows(policy, kind));
    expect(allowed("reads")).toEqual(["read", "search", "think"]);
    expect(allowed("edits")).toEqual(["read", "search", "think", "edit", "delete", "move"]);
    expect(allowed("all")).toEqual(kinds);
    expect(allowed("none")).toEqual([]);
  });

  it("answers with the once options, so an unattended run leaves no standing grant, and cancels when there is nothing to pick", () => {
    const options: acp.PermissionOption[] = [
      { optionId: "always", name: "Always allow", kind: "allow_always" },
      { optionId: "once", name: "Allow once", kind: "allow_once" },
      { optionId: "never", name: "Always reject", kind: "reject_always" },
      { optionId: "no", name: "Reject", kind: "reject_once" },
    ];
    expect(policyOutcome(true, options)).toEqual({ outcome: "selected", optionId: "once" });
    expect(policyOutcome(false, options)).toEqual({ outcome: "selected", optionId: "no" });
    expect(policyOutcome(true, options.slice(0, 1))).toEqual({ outcome: "selected", optionId: "always" });
    expect(policyOutcome(false, options.slice(0, 2))).toEqual({ outcome: "cancelled" });
  });

  it("says for the model which policy refused a call, that nobody was asked, and what it allows", () => {
    expect(policyReason("reads")).toBe("weft chat --approve reads answered for this unattended run, which allows only reading and searching.");
    expect(policyReason("none")).toContain("--approve none");
    expect(policyReason("edits")).toContain("no commands");
  });
});
