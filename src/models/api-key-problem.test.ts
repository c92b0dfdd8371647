import { describe, expect, it } from "vitest";

import { apiKeyProblem } from "./api-key-problem.js";

describe("apiKeyProblem", () => {
  it("takes the keys providers issue", () => {
    for (const key of ["sk-proj-Ab12_cd-34", "sk-ant-api03-xyz", "gsk_0123456789abcdef", "token:with/punctuation+=."]) {
      expect(apiKeyProblem(key)).toBeUndefined();
    }
  });

  it.each([
    ["sk-…", 'has "…" (U+2026) at character 4, and API keys are plain ASCII letters, digits and punctuation; it looks like a placeholder from an example, not a key'],
    ["sk-<your key>", "has a space at character 9, and API keys are plain ASCII letters, digits and punctuation; it looks like a placeholder from an example, not a key"],
    ["sk-abc\n", "has white space (U+000A) at character 7, and API keys are plain ASCII letters, digits and punctuation"],
    ["sk-\u0000abc", "has a control character (U+0000) at character 4, and API keys are plain ASCII letters, digits and punctuation"],
    ["clé", 'has "é" (U+00E9) at character 3, and API keys are plain ASCII letters, digits and punctuation'],
    ["", "is empty"],
  ])("says what is wrong with %j", (key, problem) => {
    expect(apiKeyProblem(key)).toBe(problem);
  });
});
