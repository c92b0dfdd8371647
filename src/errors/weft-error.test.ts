// Weft errors are recognised by class even when they come from another copy of the package (a
// bundled command next to the library, two versions in one install), where `instanceof` fails.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

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

describe("a WeftError subclass", () => {
  it("is named by its errorName and keeps the marker earlier versions look for", () => {
    const error = new StoreUnavailableError("redis", { cause: new Error("down") });
    expect(error.name).toBe("StoreUnavailableError");
    expect(error.code).toBe("store_unavailable");
    const marked = error as unknown as Record<symbol, unknown>;
    expect([marked[Symbol.for("weft.error")], marked[Symbol.for("weft.error.StoreUnavailableError")]]).toEqual([true, true]);
    expect(new WeftError("store_busy", "busy").name).toBe("WeftError");
  });

  it("names itself: every class under src/ that extends WeftError sets errorName to its own name", () => {
    const src = new URL("..", import.meta.url).pathname;
    const classes: string[] = [];
    const unnamed: string[] = [];
    for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
      if (!file.endsWith(".ts") || file.endsWith(".test.ts")) {
        continue;
      }
      const text = readFileSync(join(src, file), "utf8");
      for (const [, name, body] of text.matchAll(/class (\w+) extends WeftError \{\n([^]*?)\n\}/g)) {
        classes.push(`${file}: ${name}`);
        if (!body?.includes(`static override readonly errorName = "${name}";`)) {
          unnamed.push(`${file}: ${name}`);
        }
      }
    }
    expect(classes.length).toBeGreaterThan(30);
    expect(unnamed).toEqual([]);
  });
});
