import { createAgent, defineTool, resolveModel, userMessage } from "weftjs";
import { z } from "zod";

const weather = defineTool({
  name: "weather",
  description: "Today's weather in a city.",
  input: z.object({ city: z.string() }),
  execute: async ({ city }) => `Sunny in ${city}, 21 °C.`,
});

const agent = createAgent({
  model: await resolveModel("openai:gpt-4.1-mini"),
  tools: [weather],
  instructions: "You are a concise assistant.",
});

const run = agent.run({ messages: [userMessage("What's the weather in Oslo?")] }, { threadId: "demo" });
for await (const event of run) {
  if (event.type === "text-delta") {
    process.stdout.write(event.delta);
  }
}
const outcome = await run.outcome;
console.log(outcome.status === "failed" ? `\nfailed: ${outcome.error.message}` : `\n${outcome.status}`);
