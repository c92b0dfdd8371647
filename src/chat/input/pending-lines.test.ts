import { describe, expect, it } from "vitest";

import { pendingLines } from "./pending-lines.js";

const dim = (text: string) => `<${text}>`;
const nothing = { queue: [], question: undefined, draft: [], typed: "", cursor: 0, dim };

describe("pendingLines", () => {
  it("shows the queued prompts by their first line, and a question that takes a key with its ›", () => {
    const { lines, cursor } = pendingLines({ ...nothing, queue: ["one", "two\nmore\nstill"], question: { text: "Allow?", ready: true } });
    expect(lines).toEqual(["<⧗ queued: one>", "<⧗ queued: two (+2 more lines)>", "Allow? › "]);
    expect(cursor).toBeUndefined();
  });

  it("shows the prompt being typed under its labels, the question's hint above it, and the cursor in it", () => {
    const { lines, cursor } = pendingLines({ ...nothing, question: { text: "Allow?", ready: true }, draft: ["first"], typed: "a\nb", cursor: 2 });
    expect(lines).toEqual(["Allow?", "<    (to answer: Enter queues the line you are typing, Ctrl-U clears it)>", "<next › >first", "<… >a↵b"]);
    // After the label ("… ", two columns; its dimming has no width on a terminal) and "a↵".
    expect(cursor).toEqual({ line: 3, column: 4 });
  });
});
