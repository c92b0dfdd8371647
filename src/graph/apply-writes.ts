// The pure part of a step: folding the nodes' writes into the state through the channels'
// reducers, what changed (what a step record keeps), and routing to the nodes that run next.

import { diffChannel, type ChannelChange } from "./channels.js";
import { type ChannelMap, END, type GraphDefinition, type StateOf } from "./graph-definition.js";
import { WeftError } from "../errors/weft-error.js";

/** The parts of a definition a step reads (its input mapping is the run's business). */
export type StepGraph<C extends ChannelMap> = Pick<GraphDefinition<C, never>, "name" | "channels" | "nodes" | "edges" | "routers">;

/** The state after `writes`, applied in order; the same state object when nothing was written. */
export function applyWrites<C extends ChannelMap>(graph: StepGraph<C>, state: StateOf<C>, writes: Record<string, unknown>[]): StateOf<C> {
  const channels = graph.channels;
  const byChannel = new Map<string, unknown[]>();
  for (const update of writes) {
    for (const [name, value] of Object.entries(update)) {
      if (value === undefined) {
        continue;
      }
      if (!(name in channels)) {
        throw new WeftError("unknown_channel", `Graph "${graph.name}" has no channel "${name}" to write to.`);
      }
      let list = byChannel.get(name);
      if (!list) {
        list = [];
        byChannel.set(name, list);
      }
      list.push(value);
    }
  }
  if (byChannel.size === 0) {
    return state;
  }
  const next: Record<string, unknown> = { ...state };
  for (const [name, values] of byChannel) {
    next[name] = channels[name]?.reduce(next[name], values);
  }
  return next as StateOf<C>;
}

/** What changed per channel from `before` to `after`; undefined when nothing did. */
export function stateChanges<C extends ChannelMap>(graph: StepGraph<C>, before: StateOf<C>, after: StateOf<C>): Record<string, ChannelChange> | undefined {
  if (before === after) {
    return undefined;
  }
  let changes: Record<string, ChannelChange> | undefined;
  for (const [name, channel] of Object.entries(graph.channels)) {
    const change = diffChannel(channel, before[name], after[name]);
    if (change) {
      changes ??= {};
      changes[name] = change;
    }
  }
  return changes;
}

/** The nodes that run after `from`, in the order the graph declared them, without END. */
export function route<C extends ChannelMap>(graph: StepGraph<C>, from: readonly string[], state: StateOf<C>): string[] {
  const { edges, routers } = graph;
  const next: string[] = [];
  for (const node of from) {
    const router = routers.get(node);
    const routed = router ? router(state) : [];
    for (const target of [...(edges.get(node) ?? []), ...(typeof routed === "string" ? [routed] : routed)]) {
      if (target !== END && !next.includes(target)) {
        if (!graph.nodes.has(target)) {
          throw new WeftError("unknown_node", `Routing from "${node}" chose unknown node "${target}".`);
        }
        next.push(target);
      }
    }
  }
  return next;
}
