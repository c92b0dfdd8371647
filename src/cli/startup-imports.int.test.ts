// What `weft acp` loads before it can answer initialize: the bundle's entry, the acp command, and
// everything they import statically. Model providers, store drivers and the MCP SDK must not be in
// it; they load when first used.

import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { repoRoot } from "../../test/support/agent-process.js";

interface Metafile {
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }>; entryPoint?: string }>;
}

const lazy = ["better-sqlite3", "pg", "ioredis", "@modelcontextprotocol/sdk", "@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/openai-compatible"];

describe("weft acp start-up", () => {
  it("loads no model provider, store driver or MCP SDK before answering initialize", () => {
    const meta = JSON.parse(readFileSync(join(repoRoot, "dist/bundle/meta.json"), "utf8")) as Metafile;
    const outputs = meta.outputs;
    const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === "src/cli/main.ts") as string;
    const acpCommand = Object.keys(outputs).find((path) => /acp-command-[^/]*\.js$/.test(path)) as string;
    const configChunk = Object.keys(outputs).find((path) => /config-[^/]*\.js$/.test(path)) as string;
    expect([entry, acpCommand, configChunk].every(Boolean)).toBe(true);
    const loaded = new Set<string>();
    const external = new Set<string>();
    const visit = (path: string) => {
      if (loaded.has(path)) {
        return;
      }
      loaded.add(path);
      for (const imported of outputs[path]?.imports ?? []) {
        if (imported.kind !== "import-statement") {
          continue;
        }
        if (imported.external) {
          external.add(imported.path);
        } else {
          visit(imported.path);
        }
      }
    };
    [entry, acpCommand, configChunk].forEach(visit);
    expect([...external].filter((name) => lazy.some((lazyName) => name === lazyName || name.startsWith(`${lazyName}/`)))).toEqual([]);
    // They are still reachable, lazily.
    const dynamic = Object.values(outputs).flatMap((output) => output.imports.filter((imported) => imported.kind === "dynamic-import").map((imported) => imported.path));
    expect(dynamic.some((path) => path.includes("sqlite-store"))).toBe(true);
  });
});
