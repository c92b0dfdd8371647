// A small hand-built graph served to an editor: it counts the words of each prompt.
// Run it as the agent command of any ACP editor: `npx tsx examples/serve-graph.ts`.
import { messagesChannel, messageText, START, StateGraph } from "weftjs";
import { serveAcp } from "weftjs/acp";

const counter = new StateGraph({ name: "word-counter", channels: { messages: messagesChannel() } })
  .addNode("count", (state, context) => {
    const prompt = state.messages.at(-1);
    const words = prompt ? messageText(prompt).split(/\s+/).filter(Boolean).length : 0;
    context.emit({ type: "text-delta", messageId: `count-${state.messages.length}`, delta: `That prompt has ${words} words.` });
  })
  .addEdge(START, "count")
  .compile();

serveAcp(counter, { input: process.stdin, output: process.stdout }, { agentInfo: { name: "word-counter", version: "1.0.0" } });
