// Defining a graph: named async nodes over typed state channels, joined by edges. `compile()`
// checks the definition and returns the runnable graph.

import { CompiledGraph, type CompileOptions } from "./compiled-graph.js";
import { type ChannelMap, END, type GraphDefinition, type NodeFunction, type Router, START, type UpdateOf } from "./graph-definition.js";
import { GraphDefinitionError } from "./graph-errors.js";

export { END, START } from "./graph-definition.js";
export type { ChannelMap, NodeFunction, Router, StateOf, UpdateOf } from "./graph-definition.js";

/** Builds a graph. Nodes run in steps: all nodes scheduled for a step run concurrently. */
export class StateGraph<C extends ChannelMap, I = UpdateOf<C>> {
  private readonly nodes = new Map<string, NodeFunction<C>>();
  private readonly edges = new Map<string, string[]>();
  private readonly routers = new Map<string, Router<C>>();

  constructor(private readonly options: { name: string; channels: C; input?: ((input: I) => UpdateOf<C>) | undefined }) {}

  addNode(name: string, node: NodeFunction<C>): this {
    if (name === START || name === END || this.nodes.has(name)) {
      throw new GraphDefinitionError(`Node name "${name}" is reserved or already used.`);
    }
    this.nodes.set(name, node);
    return this;
  }

  addEdge(from: string, to: string): this {
    const targets = this.edges.get(from) ?? [];
    targets.push(to);
    this.edges.set(from, targets);
    return this;
  }

  addConditionalEdges(from: string, router: Router<C>): this {
    if (this.routers.has(from)) {
      throw new GraphDefinitionError(`Node "${from}" already has a router.`);
    }
    this.routers.set(from, router);
    return this;
  }

  compile(options: CompileOptions = {}): CompiledGraph<C, I> {
    const known = (name: string) => name === START || name === END || this.nodes.has(name);
    for (const [from, targets] of this.edges) {
      for (const name of [from, ...targets]) {
        if (!known(name)) {
          throw new GraphDefinitionError(`Edge ${from} → ${targets.join(", ")} names unknown node "${name}".`);
        }
      }
    }
    for (const from of this.routers.keys()) {
      if (!known(from)) {
        throw new GraphDefinitionError(`A router starts at unknown node "${from}".`);
      }
    }
    if (!this.edges.has(START) && !this.routers.has(START)) {
      throw new GraphDefinitionError(`Graph "${this.options.name}" has no edge from START.`);
    }
    const definition: GraphDefinition<C, I> = {
      name: this.options.name,
      channels: this.options.channels,
      nodes: new Map(this.nodes),
      edges: new Map(this.edges),
      routers: new Map(this.routers),
    };
    if (this.options.input) {
      definition.input = this.options.input;
    }
    return new CompiledGraph(definition, options);
  }
}
