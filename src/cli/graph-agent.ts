// What `weft acp --graph <module>` serves: the module's graph with the command's session store and
// editor bridge. A LangGraph graph is wrapped by fromLangGraph(), which (with LangChain) loads only
// on this path.

import { messageText } from "../graph/messages.js";
import type { FromLangGraphOptions } from "../langgraph/from-langgraph.js";
import { acpEditor } from "../acp/editor/acp-editor.js";
import type { AcpOptions } from "../acp/serve-acp.js";
import { storeAcpSessions } from "../acp/record/store-sessions.js";
import type { ProtocolGraph } from "../graph/protocol-graph.js";
import type { Logger } from "../types/logger.js";
import type { Message } from "../types/messages.js";
import type { Store } from "../types/store.js";
import { type GraphMapping, type LangGraphLike, loadGraphModule } from "./graph-module.js";
import { langChainFrom } from "./project-packages.js";
import { UsageError } from "./usage-error.js";

export interface GraphAgentOptions {
  store: Store;
  logger: Logger;
  version: string;
  onInitialized?: (() => void) | undefined;
}

/** The module's graph and the options to serve it with; a UsageError when the module has none. */
export async function graphAgent(file: string, options: GraphAgentOptions): Promise<{ graph: ProtocolGraph; options: AcpOptions }> {
  const { store, logger } = options;
  const editor = acpEditor({ logger });
  const found = await loadGraphModule(file, { store, editor, logger });
  if (found.kind === "weft" && (found.mapping.toInput || found.mapping.fromOutput)) {
    throw new UsageError(
      `--graph ${JSON.stringify(file)}: toInput and fromOutput are for LangGraph graphs; a weft graph's nodes read the session's messages and emit what the person is shown`,
    );
  }
  const graph = found.kind === "weft" ? found.graph : await fromLangGraphModule(found.graph, found.url, store, mappingOptions(found.mapping));
  if (found.kind === "weft" && !found.shared) {
    logger.info("The graph keeps its checkpoints where it was compiled to; export a function (context) => graph to give it the sessions store", { graph: graph.name });
  }
  return {
    graph,
    options: {
      agentInfo: { name: graph.name, title: graph.name, version: options.version },
      editor,
      sessions: storeAcpSessions(store),
      failures: "message",
      logger,
      ...(options.onInitialized ? { onInitialized: options.onInitialized } : {}),
    },
  };
}

/**
 * A LangGraph graph as a weft one. One compiled without a checkpointer keeps its checkpoints in
 * the sessions store, under a namespace of its own name, so a turn cut off by a crash carries on.
 */
async function fromLangGraphModule(found: LangGraphLike, url: string, store: Store, mapping: FromLangGraphOptions): Promise<ProtocolGraph> {
  langChainFrom(url);
  try {
    const { fromLangGraph } = await import("../langgraph/from-langgraph.js");
    const compiled = found as Parameters<typeof fromLangGraph>[0];
    if (compiled.checkpointer && compiled.checkpointer !== true) {
      return fromLangGraph(compiled, mapping);
    }
    const { WeftCheckpointSaver } = await import("../langgraph/weft-checkpoint-saver.js");
    const name = langGraphName(found);
    return fromLangGraph(compiled, { ...mapping, ...(name ? { name } : {}), checkpointer: new WeftCheckpointSaver(store, { namespace: ["weft", "langgraph", name ?? "langgraph"] }) });
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND") {
      throw new UsageError(`Serving a LangGraph graph needs @langchain/langgraph and @langchain/core installed in its project or beside weft (${(error as Error).message})`);
    }
    throw error;
  }
}

/**
 * The module's mapping as fromLangGraph() takes it: toInput is given the prompt's text and the
 * conversation before it (the run's input is the conversation with the prompt last).
 */
function mappingOptions(mapping: GraphMapping): FromLangGraphOptions {
  const options: FromLangGraphOptions = {};
  const { toInput, fromOutput } = mapping;
  if (toInput) {
    options.input = (given) => {
      const messages = (given as { messages?: Message[] } | null | undefined)?.messages ?? [];
      const prompt = messages.at(-1);
      return prompt?.role === "user" ? toInput({ text: messageText(prompt), history: messages.slice(0, -1) }) : toInput({ text: "", history: messages });
    };
  }
  if (fromOutput) {
    options.output = fromOutput;
  }
  return options;
}

/** The graph's own name (LangChain's createAgent() keeps it on the graph inside), unless it is LangGraph's default. */
function langGraphName(graph: LangGraphLike): string | undefined {
  const named = graph as { name?: unknown; graph?: { name?: unknown } };
  const name = typeof named.name === "string" ? named.name : named.graph?.name;
  return typeof name === "string" && name !== "" && name !== "LangGraph" ? name : undefined;
}
