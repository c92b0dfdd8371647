// `weft acp --graph <module>`: loads a module the person wrote and finds the graph it exports: a
// weft graph (StateGraph's compile(), createAgent()) or a compiled LangGraph.js graph (a
// StateGraph's compile(), langchain's createAgent()). Nothing of LangChain is imported here: a
// LangGraph graph is only recognised by its shape, and wrapped by the caller.

import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

import type { AcpEditor } from "../acp/editor/acp-editor.js";
import type { ProtocolGraph } from "../graph/protocol-graph.js";
import type { Logger } from "../types/logger.js";
import type { Message } from "../types/messages.js";
import type { Store } from "../types/store.js";
import { UsageError } from "./usage-error.js";
import { errorMessage } from "../errors/error-message.js";

/**
 * What a factory export is called with: the command's session store (`--sessions`), so the graph
 * keeps its checkpoints beside the sessions; the editor bridge, whose `tools` and `instructions`
 * a weft createAgent() can use; and the command's logger.
 */
export interface GraphModuleContext {
  store: Store;
  editor: AcpEditor;
  logger: Logger;
}

/**
 * How a module maps prompts to its LangGraph graph's input and the graph's final state to what the
 * person is shown: the optional `toInput` and `fromOutput` exports, for a graph whose state is not
 * a `messages` conversation.
 */
export interface GraphMapping {
  /** The graph's input for a prompt: the prompt's text, and the session's conversation before it (weft messages). */
  toInput?: ((prompt: { text: string; history: Message[] }) => unknown) | undefined;
  /** What to show of a completed run's final state: text (Markdown), anything else as JSON, undefined for nothing. */
  fromOutput?: ((state: unknown) => unknown) | undefined;
}

/**
 * The graph a module exports, by kind; `shared` is true when a factory was given the command's
 * store; `url` is the module's; `mapping` its toInput and fromOutput exports.
 */
export type ModuleGraph = ({ kind: "weft"; graph: ProtocolGraph } | { kind: "langgraph"; graph: LangGraphLike }) & { shared: boolean; url: string; mapping: GraphMapping };

/** A compiled LangGraph graph as weft recognises one, before fromLangGraph() takes it. */
export interface LangGraphLike {
  invoke(...args: unknown[]): unknown;
  stream(...args: unknown[]): unknown;
  getState(...args: unknown[]): unknown;
  checkpointer?: unknown;
}

const TYPESCRIPT = new Set([".ts", ".mts", ".cts", ".tsx"]);

/** Errors of Node's type stripping that tsx may not have. */
const RETRY_WITH_TSX = new Set<unknown>(["ERR_MODULE_NOT_FOUND", "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX", "ERR_UNKNOWN_FILE_EXTENSION"]);

/**
 * Imports `file` (relative to `cwd`) and answers the graph it exports: `default`, else `graph`,
 * else the only export that is a graph. `default` or `graph` may be a function instead, a
 * factory, which is called with the command's store, editor and logger and answers the graph (or
 * a promise of it). `toInput` and `fromOutput`, when exported, are the graph's mapping (see
 * GraphMapping). Whatever is wrong with the module is a UsageError saying so.
 */
export async function loadGraphModule(file: string, context: GraphModuleContext, cwd = process.cwd()): Promise<ModuleGraph> {
  const path = resolve(cwd, file);
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new UsageError(`--graph ${JSON.stringify(file)}: there is no such file (looked for ${path})`);
  }
  const exports = await importModule(path, file);
  const picked = pickExport(exports, file);
  const mapping = mappingOf(exports, file);
  let value = picked.value;
  if (typeof value === "function") {
    try {
      value = await (value as (context: GraphModuleContext) => unknown)(context);
    } catch (error) {
      throw new UsageError(`--graph ${JSON.stringify(file)}: its ${picked.name} export, called to make the graph, failed: ${messageOf(error)}`);
    }
  }
  const shared = typeof picked.value === "function";
  const url = pathToFileURL(path).href;
  if (isLangGraph(value)) {
    return { kind: "langgraph", graph: value, shared, url, mapping };
  }
  if (isWeftGraph(value)) {
    return { kind: "weft", graph: value, shared, url, mapping };
  }
  throw new UsageError(`--graph ${JSON.stringify(file)}: its ${picked.name} export${shared ? " answered" : " is"} ${describe(value)}, not a graph (a weft graph with run() and resume(), or a compiled LangGraph graph)`);
}

/** The module's exports, with TypeScript run through Node's own type stripping or tsx. */
async function importModule(path: string, file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  try {
    const typescript = TYPESCRIPT.has(extname(path));
    if (!typescript || nodeStripsTypes()) {
      try {
        return (await import(url)) as Record<string, unknown>;
      } catch (error) {
        // Node's type stripping leaves out what needs more than erasing types (enums, `./x.js`
        // naming x.ts): tsx, when it is there, runs those. Such a failure comes before the module runs.
        const tsx = typescript && RETRY_WITH_TSX.has((error as { code?: unknown }).code) ? await loadTsx(path) : undefined;
        if (!tsx) {
          throw error;
        }
        // Under another URL: Node keeps the failed import of this one.
        return await importWithTsx(tsx, `${url}?tsx`);
      }
    }
    const tsx = await loadTsx(path);
    if (!tsx) {
      throw new UsageError(
        `--graph ${JSON.stringify(file)} is TypeScript, which Node ${process.version} does not run by itself and tsx is not installed: ` +
          "use Node 22.18 or later (or 22.6 or later with NODE_OPTIONS=--experimental-strip-types), or install tsx (npm install --save-dev tsx)",
      );
    }
    return await importWithTsx(tsx, url);
  } catch (error) {
    if (error instanceof UsageError) {
      throw error;
    }
    throw new UsageError(`--graph ${JSON.stringify(file)} could not be loaded: ${messageOf(error)}`);
  }
}

/** Whether this Node runs TypeScript by itself (type stripping is on: by default from 22.18 and 23.6, with a flag from 22.6). */
function nodeStripsTypes(): boolean {
  return Boolean((process.features as { typescript?: string | false | undefined }).typescript);
}

interface TsxApi {
  register(): unknown;
}

/**
 * Imports the module with tsx's hooks on for good (the graph may import more TypeScript as it
 * runs). Not tsImport(): that loads the module's packages afresh, so the module's LangGraph would
 * not be the one fromLangGraph() loads, and LangGraph's classes would not know each other.
 */
async function importWithTsx(tsx: TsxApi, url: string): Promise<Record<string, unknown>> {
  tsx.register();
  return (await import(url)) as Record<string, unknown>;
}

/** tsx's API: the one installed beside the module (its project's), else the one beside weft; undefined when there is none. */
async function loadTsx(path: string): Promise<TsxApi | undefined> {
  for (const from of [path, import.meta.url]) {
    const entry = tsxEntry(from);
    if (entry) {
      const api = (await import(pathToFileURL(entry).href)) as Partial<TsxApi>;
      if (typeof api.register === "function") {
        return api as TsxApi;
      }
    }
  }
  return undefined;
}

/**
 * The file of `tsx/esm/api` for import, as seen from `from`. Read from tsx's package.json, since
 * require.resolve finds only its CommonJS build, which cannot load ES modules.
 */
function tsxEntry(from: string): string | undefined {
  try {
    const manifestPath = createRequire(from).resolve("tsx/package.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { exports?: Record<string, unknown> };
    let target = manifest.exports?.["./esm/api"];
    for (const condition of ["import", "default"]) {
      if (typeof target === "object" && target !== null) {
        target = (target as Record<string, unknown>)[condition];
      }
    }
    return typeof target === "string" ? join(dirname(manifestPath), target) : undefined;
  } catch {
    // Not installed there.
    return undefined;
  }
}

/** The export that is the graph (or makes it), with its name for messages. */
function pickExport(exports: Record<string, unknown>, file: string): { name: string; value: unknown } {
  for (const name of ["default", "graph"]) {
    if (exports[name] !== undefined) {
      return { name, value: exports[name] };
    }
  }
  const graphs = Object.entries(exports).filter(([, value]) => isWeftGraph(value) || isLangGraph(value));
  const [only] = graphs;
  if (graphs.length === 1 && only) {
    return { name: only[0], value: only[1] };
  }
  const names = Object.keys(exports);
  if (graphs.length > 1) {
    throw new UsageError(`--graph ${JSON.stringify(file)} exports several graphs (${graphs.map(([name]) => name).join(", ")}); export the one to serve as default or as graph`);
  }
  throw new UsageError(`--graph ${JSON.stringify(file)} exports no graph (${names.length > 0 ? `it exports ${names.join(", ")}` : "it exports nothing"}); export one as default or as graph`);
}

/** What each mapping export does, for the message about one that is not a function. */
const MAPPING_EXPORTS = {
  toInput: "toInput({ text, history }) answers the graph's input for a prompt",
  fromOutput: "fromOutput(state) answers what to show of a finished run's state",
} as const;

/** The module's toInput and fromOutput exports; a UsageError for one that is not a function. */
function mappingOf(exports: Record<string, unknown>, file: string): GraphMapping {
  const mapping: GraphMapping = {};
  for (const [name, what] of Object.entries(MAPPING_EXPORTS) as Array<[keyof GraphMapping, string]>) {
    const value = exports[name];
    if (value === undefined) {
      continue;
    }
    if (typeof value !== "function") {
      throw new UsageError(`--graph ${JSON.stringify(file)}: its ${name} export is ${describe(value)}, not a function (${what})`);
    }
    mapping[name] = value as never;
  }
  return mapping;
}

/** A weft graph: what serveAcp() serves. */
function isWeftGraph(value: unknown): value is ProtocolGraph {
  const graph = value as Partial<ProtocolGraph> | null | undefined;
  return typeof graph === "object" && graph !== null && typeof graph.run === "function" && typeof graph.resume === "function";
}

/** A compiled LangGraph graph (a Pregel, which says so) or what wraps one with the same methods (langchain's createAgent()). */
function isLangGraph(value: unknown): value is LangGraphLike {
  const graph = value as (Partial<LangGraphLike> & { lg_is_pregel?: unknown }) | null | undefined;
  if (typeof graph !== "object" || graph === null) {
    return false;
  }
  return graph.lg_is_pregel === true || (typeof graph.invoke === "function" && typeof graph.stream === "function" && typeof graph.getState === "function");
}

function describe(value: unknown): string {
  if (value === null) {
    return "null";
  }
  if (typeof value === "object") {
    const name = (value as { constructor?: { name?: string } }).constructor?.name;
    return name && name !== "Object" ? `a ${name}` : "an object";
  }
  return `a ${typeof value}`;
}

function messageOf(error: unknown): string {
  return errorMessage(error);
}
