// A LangGraph ReAct agent (LangChain's createAgent) that reads and writes files in the session's
// directory, asking before each write. Serve it to any ACP editor with
//   weft acp --graph examples/langgraph-react-agent.ts
// and weft gives it token streaming, permission requests for its writes, cancel per session, and
// sessions (with the graph's checkpoints) in the --sessions store. The model comes from WEFT_MODEL,
// WEFT_BASE_URL and WEFT_API_KEY, as for `weft acp`.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve } from "node:path";

import { ChatOpenAI } from "@langchain/openai";
import { type AnyAgentMiddleware, createAgent, humanInTheLoopMiddleware, tool } from "langchain";
import { z } from "zod";

// The model as `weft acp` takes it: WEFT_MODEL (openai:<id>, or openai-compatible:<id> with WEFT_BASE_URL) and WEFT_API_KEY.
const model = new ChatOpenAI({
  model: (process.env.WEFT_MODEL ?? "openai:gpt-4.1-mini").replace(/^openai(-compatible)?:/, ""),
  apiKey: process.env.WEFT_API_KEY ?? process.env.OPENAI_API_KEY ?? "none",
  configuration: { baseURL: process.env.WEFT_BASE_URL ?? null },
});

/** What weft puts in a run's config: the session's directory among it. */
interface WeftConfig {
  configurable?: { weft?: { cwd?: string | undefined } | undefined } | undefined;
}

/** `path` in the session's directory, or an error for one outside it. */
function inSession(path: string, config: WeftConfig): string {
  const root = config.configurable?.weft?.cwd ?? process.cwd();
  const full = resolve(root, path);
  const inside = relative(root, full);
  if (inside.startsWith("..") || isAbsolute(inside)) {
    throw new Error(`${path} is outside the session's directory.`);
  }
  return full;
}

const readFileTool = tool(async ({ path }, config) => readFile(inSession(path, config), "utf8"), {
  name: "read_file",
  description: "Reads a text file of the project, by its path relative to the project's directory.",
  schema: z.object({ path: z.string().describe("The file's path, relative to the project") }),
});

const writeFileTool = tool(
  async ({ path, content }, config) => {
    const full = inSession(path, config);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
    return `Wrote ${path}.`;
  },
  {
    name: "write_file",
    description: "Writes a text file of the project (replacing it if it exists), by its path relative to the project's directory.",
    schema: z.object({ path: z.string().describe("The file's path, relative to the project"), content: z.string().describe("The whole new text of the file") }),
  },
);

// Each write waits for the person: weft asks the editor for permission (allow, reject, or edit the
// call where the editor shows forms). The casts are only for this repository's tsconfig: LangChain's
// middleware types do not survive exactOptionalPropertyTypes; without that setting none is needed.
const approveWrites = humanInTheLoopMiddleware({ interruptOn: { write_file: { allowedDecisions: ["approve", "edit", "reject"] } } } as never) as unknown as AnyAgentMiddleware;

export default createAgent({
  name: "langgraph-react-agent",
  model,
  tools: [readFileTool, writeFileTool],
  systemPrompt: "You are a careful coding assistant. Read files before you change them, and keep answers short.",
  middleware: [approveWrites],
});
