// An agent tested with no key and no network: the real OpenAI provider talks to weft's fake
// Responses server, which is scripted to call a tool and then answer.
import { createAgent, defineTool, resolveModel, userMessage } from "weftjs";
import { FakeResponsesServer } from "weftjs/testing";
import { z } from "zod";

const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  input: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => a + b,
});

const server = await FakeResponsesServer.start([
  { toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] },
  { text: "2 + 3 is 5." },
]);
const model = await resolveModel("openai:gpt-4.1-mini", { baseURL: server.url, apiKey: "test" });
const agent = createAgent({ model, tools: [add] });

const outcome = await agent.run({ messages: [userMessage("What is 2 + 3?")] }, { threadId: "test" }).outcome;
const last = outcome.status === "completed" ? outcome.output.messages.at(-1) : undefined;
console.log(last?.role === "assistant" ? last.parts.map((part) => (part.type === "text" ? part.text : "")).join("") : outcome.status);
// What the model was sent back: { role: "tool", toolCallId: "call_1", content: "5" }
console.log(server.requests[1]?.messages.at(-1));
await server.close();
