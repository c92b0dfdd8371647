// Bundles the `weft` command into dist/bundle: one file of what `weft acp` needs before it answers
// `initialize` (our code, the ACP SDK, zod), minified, so the editor waits for less to load and
// parse. Store drivers and model providers stay outside, loaded only when first used. The MCP SDK
// client is bundled into chunks of its own, loaded only when a session has MCP servers: the package
// is an optional peer (its server-side dependencies weigh about 17 MB), yet `weft acp` needs it.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { build } from "esbuild";

// marked, marked-terminal and chalk render markdown in `weft chat` only; ws is the WebSocket
// client of `weft chat --url ws://…` and the server of `weft serve`. LangChain (optional peers) is
// loaded only by `weft acp --graph` of a LangGraph graph, from the project's node_modules. ajv
// validates lines for `weft check` only.
const lazy = ["better-sqlite3", "pg", "ioredis", "@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/openai-compatible", "marked", "marked-terminal", "chalk", "ws", "@langchain/*", "langchain", "ajv"];

rmSync("dist/bundle", { recursive: true, force: true });

const result = await build({
  entryPoints: ["src/cli/main.ts"],
  outdir: "dist/bundle",
  bundle: true,
  splitting: true,
  minify: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: lazy,
  // Some bundled CommonJS code calls require(); give it one.
  banner: { js: "import { createRequire as __weftCreateRequire } from 'node:module'; const require = __weftCreateRequire(import.meta.url);" },
  logLevel: "warning",
  metafile: true,
});

// What each output imports, statically and dynamically: a test checks start-up loads no driver.
writeFileSync("dist/bundle/meta.json", JSON.stringify(result.metafile));

// The licences of the packages copied into the bundle, as their licences ask.
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match && !packages.has(match[1])) {
    packages.set(match[1], JSON.parse(readFileSync(join(match[1], "package.json"), "utf8")));
  }
}
const notices = [...packages]
  .sort(([, a], [, b]) => a.name.localeCompare(b.name))
  .map(([directory, manifest]) => {
    const file = readdirSync(directory).find((name) => /^(licen[cs]e|copying)/i.test(name));
    const text = file && existsSync(join(directory, file)) ? readFileSync(join(directory, file), "utf8").trim() : `License: ${manifest.license}`;
    return `## ${manifest.name}@${manifest.version} (${manifest.license})\n\n${text}\n`;
  });
writeFileSync("dist/bundle/THIRD-PARTY-LICENSES.md", `# Third-party code in this bundle\n\n${notices.join("\n")}`);
