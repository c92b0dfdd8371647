// Weft errors are recognised by class even when they come from another copy of the package (a
// bundled command next to the library, two versions in one install), where `instanceof` fails.

import { describe, expect, it } from "vitest";

import { MissingPackageError } from "./missing-package-error.js";
import type * as storeErrors from "./store-errors.js";
import { InvalidNamespaceError, StoreUnavailableError } from "./store-errors.js";
import { WeftError } from "./weft-error.js";

/** The module loaded a second time, as a second copy of the package would be: new classes, same code. */
async function secondCopy(): Promise<typeof storeErrors> {
  const specifier = "./store-errors.js?second-copy";
  return (await import(/* @vite-ignore */ specifier)) as typeof storeErrors;
}

describe("WeftError.isInstance and each class's isInstance", () => {
  it("each class recognises its own errors and no other class's", () => {
    const unavailable = new StoreUnavailableError("redis", { cause: new Error("down") });
    const invalid = new InvalidNamespaceError(["a", ""], "an empty label");
    const missing = new MissingPackageError("pg", "Postgres stores");
    expect([unavailable, invalid, missing].map((error) => WeftError.isInstance(error))).toEqual([true, true, true]);
    expect([unavailable, invalid, missing].map((error) => StoreUnavailableError.isInstance(error))).toEqual([true, false, false]);
    expect([unavailable, invalid, missing].map((error) => InvalidNamespaceError.isInstance(error))).toEqual([false, true, false]);
    expect([unavailable, invalid, missing].map((error) => MissingPackageError.isInstance(error))).toEqual([false, false, true]);
    expect([new Error("plain"), { code: "store_unavailable" }, null, "store_unavailable"].some((value) => WeftError.isInstance(value) || StoreUnavailableError.isInstance(value))).toBe(false);
  });

  it("recognises an error made by another copy of the class, which instanceof does not", async () => {
    const copy = await secondCopy();
    expect(copy.StoreUnavailableError).not.toBe(StoreUnavailableError);
    const fromCopy = new copy.StoreUnavailableError("postgres", { cause: new Error("refused") });
    expect(fromCopy instanceof StoreUnavailableError).toBe(false);
    expect(StoreUnavailableError.isInstance(fromCopy)).toBe(true);
    expect(WeftError.isInstance(fromCopy)).toBe(true);
    expect(InvalidNamespaceError.isInstance(fromCopy)).toBe(false);
    expect(copy.StoreUnavailableError.isInstance(new StoreUnavailableError("redis", { cause: "gone" }))).toBe(true);
  });
});
