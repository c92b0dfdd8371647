// Bundles the `weft` command into dist/bundle: one file of what `weft acp` needs before it answers
// `initialize` (our code, the ACP SDK, zod), minified, so the editor waits for less to load and
// parse. Drivers, model providers and the MCP SDK stay outside, loaded only when first used.
import { rmSync, writeFileSync } from "node:fs";

import { build } from "esbuild";

const lazy = ["better-sqlite3", "pg", "ioredis", "@modelcontextprotocol/sdk", "@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/openai-compatible"];

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
