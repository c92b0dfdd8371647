import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { historyLimit, historyPath, loadHistory, saveHistory } from "./prompt-history.js";

let directory = "";
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe("prompt history", () => {
  it("keeps one file per project under $XDG_STATE_HOME, and round-trips multi-line prompts newest first", () => {
    directory = mkdtempSync(join(tmpdir(), "weft-history-"));
    const path = historyPath("/work/project", { XDG_STATE_HOME: directory });
    expect(path.startsWith(join(directory, "weft", "history"))).toBe(true);
    expect(historyPath("/work/other", { XDG_STATE_HOME: directory })).not.toBe(path);
    saveHistory(path, ["newest", "two\nlines", "oldest"]);
    expect(loadHistory(path)).toEqual(["newest", "two\nlines", "oldest"]);
  });

  it("is bounded, skips torn lines, and reads a missing file as empty", () => {
    directory = mkdtempSync(join(tmpdir(), "weft-history-"));
    const path = join(directory, "history");
    expect(loadHistory(path)).toEqual([]);
    saveHistory(path, Array.from({ length: historyLimit + 20 }, (_, index) => `prompt ${index}`));
    const loaded = loadHistory(path);
    expect(loaded).toHaveLength(historyLimit);
    expect(loaded[0]).toBe("prompt 0");
    writeFileSync(path, '"first"\n{"torn\n"second"\n');
    expect(loadHistory(path)).toEqual(["second", "first"]);
  });
});
