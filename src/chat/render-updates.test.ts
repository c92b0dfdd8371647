import type * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { terminalStyle, UpdateRenderer } from "./render-updates.js";

function renderer() {
  let screen = "";
  const rendered: string[] = [];
  const instance = new UpdateRenderer((text) => {
    screen += text;
  }, terminalStyle(false));
  return { instance, rendered, screen: () => screen };
}

const text = (chunk: string): acp.SessionUpdate => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: chunk } });

describe("UpdateRenderer", () => {
  it("renders each markdown block of a streamed reply once, as it completes, and the rest at the end", () => {
    const { instance, rendered, screen } = renderer();
    instance.agentName = "Claude";
    instance.markdown = {
      columns: () => 80,
      render: (markdown) => {
        rendered.push(markdown);
        return `<${markdown.trim()}>`;
      },
    };
    for (const chunk of ["# Ti", "tle\n", "\nSome ", "words.\n\n``", "`\ncode\n\nstill code\n``", "`\nlast", " line"]) {
      instance.render(text(chunk));
    }
    expect(rendered).toEqual(["# Title\n\n", "Some words.\n\n", "```\ncode\n\nstill code\n```\n"]);
    expect(screen()).toBe("Claude › <# Title>\n\n<Some words.>\n\n<```\ncode\n\nstill code\n```>");
    instance.breakLine();
    expect(rendered.at(-1)).toBe("last line");
    expect(screen()).toBe("Claude › <# Title>\n\n<Some words.>\n\n<```\ncode\n\nstill code\n```>\n\n<last line>\n");
  });

  it("starts a rendered reply under its label when its first line does not fit beside it", () => {
    const { instance, screen } = renderer();
    instance.markdown = { columns: () => 20, render: (markdown) => markdown.trim() };
    instance.render(text("A line that is too long\n\nshort"));
    instance.breakLine();
    expect(screen()).toBe("weft › \nA line that is too long\n\nshort\n");
  });

  it("writes a reply as it streams, unrendered, when there is no markdown renderer", () => {
    const { instance, screen } = renderer();
    instance.render(text("# Ti"));
    instance.render(text("tle"));
    instance.breakLine();
    expect(screen()).toBe("weft › # Title\n");
  });

  it("shows a command's output live, bounded, with its exit status, and not again when the call ends", () => {
    const { instance, screen } = renderer();
    const listener = instance.terminalListener(() => {});
    instance.render({ sessionUpdate: "tool_call", toolCallId: "c1", title: "Run seq 100", kind: "execute", status: "in_progress" });
    listener.output("term_1", "1\n2\n");
    listener.output("term_1", "3");
    expect(screen()).toContain("│ 1\n    │ 2\n");
    expect(screen()).not.toContain("│ 3");
    listener.output("term_1", Array.from({ length: 97 }, (_, index) => `\n${index + 4}`).join("") + "\n");
    listener.exit("term_1", { exitCode: 0, signal: null });
    instance.render({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed", content: [{ type: "terminal", terminalId: "term_1" }], rawOutput: "Exit code 0.\n1\n2\n" });
    expect(screen()).toContain("│ 40\n    │ … 60 more lines\n    └ exit 0\n  ✓ Run seq 100\n");
    expect(screen()).not.toContain("│ 41\n");
    expect(screen()).not.toContain("[terminal");
    expect(screen().match(/│ 1\n/g)).toHaveLength(1);
  });

  it("shows a replayed command's recorded output", () => {
    const { instance, screen } = renderer();
    instance.render({ sessionUpdate: "tool_call", toolCallId: "c1", title: "Run ls", kind: "execute", status: "completed", content: [{ type: "terminal", terminalId: "term_9" }], rawOutput: "Exit code 0.\nREADME.md\n" });
    expect(screen()).toBe("  ⚙ Run ls (execute)\n    │ Exit code 0.\n    │ README.md\n  ✓ Run ls\n");
  });

  it("shows an edit's diff with its permission request and not again when the call ends", () => {
    const { instance, screen } = renderer();
    const diff: acp.ToolCallContent = { type: "diff", path: "/p/a.txt", oldText: "one\ntwo\n", newText: "one\nthree\n" };
    instance.renderPermission({ toolCallId: "c1", title: "Edit a.txt", content: [diff] });
    expect(screen()).toContain("- two\n");
    expect(screen()).toContain("+ three\n");
    instance.render({ sessionUpdate: "tool_call_update", toolCallId: "c1", title: "Edit a.txt", status: "completed", content: [diff] });
    expect(screen().match(/\+ three/g)).toHaveLength(1);
    expect(screen()).toMatch(/\+ three\n {2}✓ Edit a\.txt\n$/);
  });

  it("shows usage and cost after a turn once the agent sent them", () => {
    const { instance } = renderer();
    expect(instance.turnSummary()).toBe("");
    instance.render({ sessionUpdate: "usage_update", used: 12_345, size: 128_000, cost: { amount: 0.0042, currency: "USD" } });
    expect(instance.turnSummary()).toBe("  12.3k / 128k tokens (10%) · $0.0042\n");
  });

  it("renders a plan as a checklist", () => {
    const { instance, screen } = renderer();
    instance.render({
      sessionUpdate: "plan",
      entries: [
        { content: "Read", priority: "high", status: "completed" },
        { content: "Write", priority: "high", status: "in_progress" },
        { content: "Test", priority: "low", status: "pending" },
      ],
    });
    expect(screen()).toBe("  plan\n    ✓ Read\n    › Write\n    ○ Test\n");
  });
});
