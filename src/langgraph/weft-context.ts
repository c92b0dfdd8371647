// What a LangGraph node or tool run by weft is told: the run's context, under one key of its
// config's `configurable`.

import type { RunConfig } from "../graph/run-outcome.js";
import type { Principal } from "../types/principal.js";

/** What a LangGraph node or tool finds in `config.configurable.weft` (see weftContext()). */
export interface WeftRunContext {
  /** The thread: for an editor session, its session id. */
  sessionId: string;
  /** The session's directory, when the run has one. */
  cwd?: string | undefined;
  /** Who the run acts for. */
  principal?: Principal | undefined;
  /** The run's settings (the session's config values) as they were when it started. */
  config: RunConfig;
}

/** The key under `configurable` where a LangGraph node or tool finds the run's WeftRunContext. */
export const WEFT_CONFIG_KEY = "weft";

/** The run's WeftRunContext, from the `config` a LangGraph node or tool is given; undefined outside weft. */
export function weftContext(config: { configurable?: Record<string, unknown> | undefined } | undefined): WeftRunContext | undefined {
  return config?.configurable?.[WEFT_CONFIG_KEY] as WeftRunContext | undefined;
}
