// A session's directories: an absolute cwd, and other directories kept in order, once each,
// refused whole when one of them is not absolute.

import { describe, expect, it } from "vitest";

import { InvalidCwdError, InvalidDirectoryError } from "../errors/request-errors.js";
import { additionalDirectories, checkCwd } from "./session-directories.js";

describe("session directories", () => {
  it("takes absolute POSIX and Windows directories as the cwd, and refuses relative ones", () => {
    expect(() => checkCwd("/work/project")).not.toThrow();
    expect(() => checkCwd("C:\\Users\\ann\\repo")).not.toThrow();
    expect(() => checkCwd("project")).toThrow(InvalidCwdError);
    expect(() => checkCwd("")).toThrow(InvalidCwdError);
  });

  it("keeps other directories in the order given, each once, without the cwd, and none as undefined", () => {
    expect(additionalDirectories("/work/app", ["/work/lib", "/work/docs", "/work/lib", "/work/app"])).toEqual(["/work/lib", "/work/docs"]);
    expect(additionalDirectories("/work/app", ["D:\\shared"])).toEqual(["D:\\shared"]);
    expect(additionalDirectories("/work/app", [])).toBeUndefined();
    expect(additionalDirectories("/work/app", undefined)).toBeUndefined();
    expect(additionalDirectories("/work/app", null)).toBeUndefined();
    expect(additionalDirectories("/work/app", ["/work/app"])).toBeUndefined();
  });

  it("refuses a relative or empty directory, naming it", () => {
    expect(() => additionalDirectories("/work/app", ["/work/lib", "../lib"])).toThrow(new InvalidDirectoryError("../lib"));
    expect(() => additionalDirectories("/work/app", [""])).toThrow(InvalidDirectoryError);
  });
});
