// weft's side of the streaming benchmark: a graph whose one node emits N text deltas for a prompt
// "stream N", served with serveAcp from the built package.
import { START, StateGraph, messagesChannel, messageText } from "../dist/index.js";
import { serveAcp } from "../dist/acp/index.js";

const graph = new StateGraph({ name: "streamer", channels: { messages: messagesChannel() } })
  .addNode("stream", (state, context) => {
    const last = state.messages.at(-1);
    const count = Number(/^stream (\d+)/.exec(last ? messageText(last) : "")?.[1] ?? 1);
    for (let index = 0; index < count; index++) {
      context.emit({ type: "text-delta", messageId: "m", delta: "x" });
    }
  })
  .addEdge(START, "stream")
  .compile();

const server = serveAcp(graph, { input: process.stdin, output: process.stdout }, { agentInfo: { name: "streamer", version: "1.0.0" } });
await server.closed;
