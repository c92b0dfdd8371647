// What a test leaves behind (servers, processes, directories), undone after it, the last made first.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach } from "vitest";

/** Where cleanups go: a test's list, run in reverse after it. */
export type Cleanups = Array<() => Promise<void> | void>;

/** A list of cleanups for the tests of the calling file: after each test, its steps run, last first. */
export function cleanupsAfterEach(): Cleanups {
  const cleanups: Cleanups = [];
  afterEach(async () => {
    for (const step of cleanups.splice(0).reverse()) {
      await step();
    }
  });
  return cleanups;
}

/** A fresh directory under the system's temporary one, removed at cleanup. */
export function temporaryDirectory(prefix: string, cleanups: Cleanups): string {
  const path = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(path, { recursive: true, force: true }));
  return path;
}
