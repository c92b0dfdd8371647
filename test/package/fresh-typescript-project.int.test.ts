// The README's examples, as a newcomer types them: a fresh project made with `npm init` and
// `tsc --init` (TypeScript 7, whose defaults are strict and include exactOptionalPropertyTypes),
// with weftjs installed from the packed tarball. They must type-check with no changes.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { repoRoot } from "../support/agent-process.js";
import { installPacked, type PackedInstall } from "../support/packed-package.js";

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
const examples = [...readme.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g)].map(([, path, code]) => ({ name: (path as string).split("/").pop() as string, code: code as string }));

let project: PackedInstall;

beforeAll(async () => {
  project = await installPacked({ ignoreScripts: true, packages: ["typescript@7", "@types/node@20", "zod@4"] });
}, 900_000);

afterAll(() => project?.remove());

describe("a fresh strict TypeScript project", () => {
  it("type-checks every README example against the packed package", async () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
    const init = await project.run("npx", ["tsc", "--init"]);
    expect(init.code).toBe(0);
    const configPath = join(project.dir, "tsconfig.json");
    const config = readFileSync(configPath, "utf8");
    expect(config).toMatch(/^\s*"exactOptionalPropertyTypes": true,/m);
    expect(config).toMatch(/^\s*"strict": true,/m);
    // The one change tsc --init's own comment asks for in a Node project.
    writeFileSync(configPath, config.replace('"types": [],', '"types": ["node"],'));
    for (const example of examples) {
      writeFileSync(join(project.dir, example.name), example.code);
    }
    const check = await project.run("npx", ["tsc", "--noEmit", "-p", "."], { timeoutMs: 120_000 });
    expect(check.stdout + check.stderr).toBe("");
    expect(check.code).toBe(0);
  });
});
