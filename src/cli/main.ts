// The `weft` command: parses arguments and hands off to a subcommand. No protocol or agent logic
// lives here.

import { readFileSync } from "node:fs";

const HELP = `weft: AI agents as graphs, served to code editors over ACP.

Usage:
  weft --help       Show this help.
  weft --version    Show the version.
`;

/** Runs the command and resolves with its exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [first] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  if (first === "--version" || first === "-v") {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  process.stderr.write(`weft: unknown command "${first}". Run weft --help for the commands.\n`);
  return 2;
}

function version(): string {
  const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return packageJson.version;
}
