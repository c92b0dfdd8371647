// `weft acp --graph` of a LangGraph graph: weft's own imports of LangChain packages resolve from
// the graph module's project, so fromLangGraph() and WeftCheckpointSaver use the very copy of
// LangGraph the graph was built with. Two copies do not know each other's classes (a `Send` from
// one is not a `Send` to the other), and a weft installed on its own (npx, a global install) may
// have no LangChain at all.

import * as nodeModule from "node:module";

/** Resolves a LangChain import of weft's (from a file under `weft`) as if `module` made it, falling back to weft's own copy. */
const HOOKS = `
let paths;
export function initialize(data) { paths = data; }
export async function resolve(specifier, context, next) {
  if (paths && context.parentURL && context.parentURL.startsWith(paths.weft) && /^(@langchain\\/|langchain(\\/|$))/.test(specifier)) {
    try {
      return await next(specifier, { ...context, parentURL: paths.module });
    } catch {
      // Not in the module's project: weft's own copy, below.
    }
  }
  return next(specifier, context);
}
`;

/**
 * From now on, imports of `@langchain/*` and `langchain` by weft's code resolve from `moduleUrl`
 * first. Needs module.register() (Node 20.6 and later); without it weft's own copy is used.
 */
export function langChainFrom(moduleUrl: string): void {
  const register = (nodeModule as { register?: typeof nodeModule.register }).register;
  if (typeof register !== "function") {
    return;
  }
  // The directory of this file: the bundle's, whose chunks are all in it.
  const weft = new URL(".", import.meta.url).href;
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { weft, module: moduleUrl } });
}
