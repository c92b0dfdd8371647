// weftjs/langgraph: serve a LangGraph.js graph (or a LangChain createAgent() agent) with weft's
// protocol servers. Needs @langchain/langgraph and @langchain/core, which this entry alone loads.

export { fromLangGraph, weftContext, WEFT_CONFIG_KEY } from "./from-langgraph.js";
export type { FromLangGraphOptions, LangGraphLike, StateSnapshotLike, WeftRunContext } from "./from-langgraph.js";
export { defaultResumeValue } from "./interrupts.js";
export { InvalidAnswerError } from "./invalid-answer-error.js";
export type { ResumeValue } from "./interrupts.js";
export { WeftCheckpointSaver } from "./weft-checkpoint-saver.js";
export type { WeftCheckpointSaverOptions } from "./weft-checkpoint-saver.js";
