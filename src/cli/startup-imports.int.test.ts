// What `weft acp` loads before it can answer initialize: the bundle's entry, the acp command, and
// everything they import statically. Model providers, store drivers (node:sqlite included) and the
// MCP SDK must not be in it; they load when first used.

import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { repoRoot } from "../../test/support/agent-process.js";

interface Metafile {
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }>; inputs: Record<string, unknown>; entryPoint?: string }>;
}

/** Packages left out of the bundle, loaded from node_modules when first used. */
const lazyPackages = ["better-sqlite3", "pg", "ioredis", "@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/openai-compatible", "marked", "marked-terminal", "chalk", "ws", "@langchain", "langchain", "ajv"];
/** Source bundled into chunks of their own that start-up must not load: the MCP SDK (an optional peer, bundled for the command), jose (JWTs, for remote serving) and our store drivers. */
const lazyInputs = [/node_modules\/@modelcontextprotocol\/sdk\//, /node_modules\/jose\//, /^src\/stores\/sqlite\/(sqlite-store|.*-driver)\.ts$/, /^src\/stores\/(postgres|redis)\//];

describe("weft acp start-up", () => {
  const meta = JSON.parse(readFileSync(join(repoRoot, "dist/bundle/meta.json"), "utf8")) as Metafile;
  const outputs = meta.outputs;
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === "src/cli/main.ts") as string;
  const acpCommand = Object.keys(outputs).find((path) => /acp-command-[^/]*\.js$/.test(path)) as string;
  const configChunk = Object.keys(outputs).find((path) => /config-[^/]*\.js$/.test(path)) as string;
  /** The outputs `starts` load statically, and the packages outside the bundle those import. */
  const closure = (starts: string[]) => {
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
    starts.forEach(visit);
    return { loaded, external };
  };
  const { loaded, external } = closure([entry, acpCommand, configChunk]);
  const dynamic = Object.values(outputs).flatMap((output) => output.imports.filter((imported) => imported.kind === "dynamic-import").map((imported) => imported.path));

  it("loads no model provider, store driver or MCP SDK before answering initialize", () => {
    expect([entry, acpCommand, configChunk].every(Boolean)).toBe(true);
    expect([...external].filter((name) => lazyPackages.some((lazyName) => name === lazyName || name.startsWith(`${lazyName}/`)))).toEqual([]);
    const inputsAtStart = [...loaded].flatMap((path) => Object.keys(outputs[path]?.inputs ?? {}));
    expect(inputsAtStart.filter((input) => lazyInputs.some((pattern) => pattern.test(input)))).toEqual([]);
    expect(inputsAtStart.some((input) => input.includes("node:sqlite"))).toBe(false);
    // They are still reachable, lazily.
    expect(dynamic.some((path) => path.includes("sqlite-store"))).toBe(true);
  });

  it("loads no LangChain module for --graph before the module asks for it, and bundles none", () => {
    const graphAgent = Object.keys(outputs).find((path) => /graph-agent-[^/]*\.js$/.test(path)) as string;
    expect(graphAgent).toBeDefined();
    expect(loaded.has(graphAgent)).toBe(false);
    // What serving a module's weft graph loads statically, with start-up's: LangChain comes only
    // for a LangGraph graph, by dynamic import.
    const withGraph = closure([entry, acpCommand, configChunk, graphAgent]);
    const langchain = (name: string) => name === "langchain" || name.startsWith("langchain/") || name.startsWith("@langchain/");
    expect([...withGraph.external].filter(langchain)).toEqual([]);
    // LangChain is an optional peer: it stays in the project's node_modules, never in the bundle.
    expect(Object.values(outputs).some((output) => Object.keys(output.inputs).some((input) => input.includes("node_modules/@langchain/")))).toBe(false);
  });

  it("bundles the MCP SDK client into chunks loaded only for sessions with MCP servers", () => {
    const mcpChunks = Object.keys(outputs).filter((path) => Object.keys(outputs[path]?.inputs ?? {}).some((input) => input.includes("node_modules/@modelcontextprotocol/sdk/")));
    expect(mcpChunks.length).toBeGreaterThan(0);
    expect(mcpChunks.filter((path) => loaded.has(path))).toEqual([]);
    expect(Object.values(outputs).some((output) => output.imports.some((imported) => imported.external && imported.path.startsWith("@modelcontextprotocol/sdk")))).toBe(false);
  });
});
