import { describe, expect, it } from "vitest";

import { BodyBudget } from "./body-budget.js";

describe("BodyBudget", () => {
  it("lets a principal hold up to its limit, and others beside it up to the total", () => {
    const budget = new BodyBudget({ perPrincipalBytes: 10, totalBytes: 15 });
    const first = budget.reserve("ann", 6);
    expect(first).toBeDefined();
    expect(budget.reserve("ann", 6)).toBeUndefined();
    expect(budget.reserve("bob", 6)).toBeDefined();
    // 12 held of 15: a third principal's 6 would pass the total.
    expect(budget.reserve("cy", 6)).toBeUndefined();
    first?.();
    expect(budget.reserve("cy", 6)).toBeDefined();
  });

  it("lets in one body larger than a limit when nothing else is held, and releases once", () => {
    const budget = new BodyBudget({ perPrincipalBytes: 10, totalBytes: 15 });
    const big = budget.reserve("ann", 20);
    expect(big).toBeDefined();
    expect(budget.reserve("ann", 1)).toBeUndefined();
    big?.();
    big?.();
    const small = budget.reserve("ann", 10);
    expect(small).toBeDefined();
    expect(budget.reserve("bob", 5)).toBeDefined();
    expect(budget.reserve("bob", 1)).toBeUndefined();
  });
});
