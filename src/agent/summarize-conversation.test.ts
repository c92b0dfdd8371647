// The summariser's prompt: a transcript of the older messages in passes that each fit the limit
// with the summary so far, an entry too long for a pass shortened in its middle.

import { describe, expect, it } from "vitest";

import { userMessage } from "../graph/messages.js";
import type { AssistantMessage, Message, ToolMessage } from "../types/messages.js";
import { estimateTokens } from "./context-window.js";
import { DEFAULT_SUMMARY_INSTRUCTIONS, planPasses, summaryPrompt, transcriptEntry } from "./summarize-conversation.js";

const at = "2026-12-01T00:00:00.000Z";

describe("transcriptEntry", () => {
  it("says who said what, and what each tool was called with and gave", () => {
    const call: AssistantMessage = { id: "a", role: "assistant", parts: [{ type: "text", text: "Let me look." }, { type: "tool-call", toolCallId: "c", toolName: "read", input: { path: "a.ts" } }], createdAt: at };
    const result: ToolMessage = { id: "t", role: "tool", parts: [{ type: "tool-result", toolCallId: "c", toolName: "read", output: "no such file", isError: true }], createdAt: at };
    expect(transcriptEntry(userMessage("Fix a.ts"))).toBe("Person: Fix a.ts");
    expect(transcriptEntry(call)).toBe('Assistant: Let me look.\nAssistant called read with {"path":"a.ts"}');
    expect(transcriptEntry(result)).toBe("Failed read: no such file");
  });
});

describe("planPasses", () => {
  const messages: Message[] = Array.from({ length: 30 }, (_, index) => userMessage(`Message ${index}: ${"word ".repeat(80)}`));

  it("splits the transcript in passes whose prompts fit the limit, with the summary so far at its longest", () => {
    const request = { instructions: DEFAULT_SUMMARY_INSTRUCTIONS, previous: "An earlier summary.", messages, limit: 1500, maxOutputTokens: 300 };
    const passes = planPasses(request);
    expect(passes.length).toBeGreaterThan(2);
    expect(passes.flat()).toHaveLength(30);
    const longest = "x".repeat(300 * 4 - 2);
    for (const pass of passes) {
      expect(estimateTokens(summaryPrompt(request.instructions, longest, pass))).toBeLessThanOrEqual(request.limit);
    }
  });

  it("shortens an entry too long for a pass of its own in its middle", () => {
    const huge = userMessage(`start ${"middle ".repeat(5000)} end`);
    const [pass, ...rest] = planPasses({ instructions: DEFAULT_SUMMARY_INSTRUCTIONS, previous: undefined, messages: [huge], limit: 1000, maxOutputTokens: 200 });
    expect(rest).toEqual([]);
    expect(pass?.[0]).toMatch(/^Person: start middle[\s\S]*characters left out[\s\S]*middle\s+end$/);
    expect(estimateTokens(summaryPrompt(DEFAULT_SUMMARY_INSTRUCTIONS, "y".repeat(798), pass ?? []))).toBeLessThanOrEqual(1000);
  });

  it("makes one pass when the window is not known", () => {
    expect(planPasses({ instructions: "Summarise.", previous: undefined, messages, limit: Infinity, maxOutputTokens: undefined })).toHaveLength(1);
  });
});
