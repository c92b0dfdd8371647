// The parts of a graph definition: the START and END markers, node and router signatures, and the
// checked definition a compiled graph runs.

import type { Channel } from "./channels.js";
import type { NodeContext } from "./node-context.js";

/** The entry: an edge from START names the first node(s). */
export const START = "__start__";
/** The exit: routing to END finishes the branch. */
export const END = "__end__";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- channel maps mix value and write types freely
export type ChannelMap = Record<string, Channel<any, any>>;

export type StateOf<C extends ChannelMap> = { [K in keyof C]: C[K] extends Channel<infer V, unknown> ? V : never };

export type UpdateOf<C extends ChannelMap> = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- inferring a channel's write type
  [K in keyof C]?: C[K] extends Channel<any, infer W> ? W : never;
};

/** A node: reads the state, does its work, and returns the writes it makes (or nothing). */
export type NodeFunction<C extends ChannelMap> = (
  state: Readonly<StateOf<C>>,
  context: NodeContext,
) => UpdateOf<C> | void | Promise<UpdateOf<C> | void>;

/** Picks the next node(s) from the state after a step; END (or an empty list) finishes the branch. */
export type Router<C extends ChannelMap> = (state: Readonly<StateOf<C>>) => string | readonly string[];

export interface GraphDefinition<C extends ChannelMap, I> {
  name: string;
  channels: C;
  /** Turns a run's input into the first writes. Defaults to using the input as writes. */
  input?: ((input: I) => UpdateOf<C>) | undefined;
  nodes: Map<string, NodeFunction<C>>;
  edges: Map<string, string[]>;
  routers: Map<string, Router<C>>;
}
