// What `weft acp --graph <module>` serves: the module's graph with the command's session store and
// editor bridge. A LangGraph graph is wrapped by fromLangGraph(), which (with LangChain) loads only
// on this path.

import { acpEditor } from "../protocols/acp/editor/acp-editor.js";
import type { AcpOptions } from "../protocols/acp/serve-acp.js";
import { storeAcpSessions } from "../protocols/acp/store-sessions.js";
import type { ProtocolGraph } from "../protocols/shared.js";
import type { Logger } from "../types/logger.js";
import type { Store } from "../types/store.js";
import { loadGraphModule } from "./graph-module.js";

export interface GraphAgentOptions {
  store: Store;
  logger: Logger;
  version: string;
  onInitialized?: (() => void) | undefined;
}

/** The module's graph and the options to serve it with; a UsageError when the module has none. */
export async function graphAgent(file: string, options: GraphAgentOptions): Promise<{ graph: ProtocolGraph; options: AcpOptions }> {
  quietStdout();
  const { store, logger } = options;
  const editor = acpEditor({ logger });
  const found = await loadGraphModule(file, { store, editor, logger });
  const graph = found.graph as ProtocolGraph;
  if (!found.shared) {
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
 * Sends what the module logs with console.log (and info, debug) to stderr: stdout carries only
 * the protocol, and one stray line there would break the editor's connection.
 */
function quietStdout(): void {
  /* eslint-disable no-console -- pointing the module's console at stderr, not logging */
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  /* eslint-enable no-console */
}
