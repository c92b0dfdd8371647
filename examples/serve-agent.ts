// A createAgent() agent served to an editor. The model comes from WEFT_MODEL (for example
// "openai:gpt-4.1-mini", or "openai-compatible:llama" with WEFT_BASE_URL); the clock tool needs
// no approval, the reminder tool asks the person first.
import { createAgent, defineTool, resolveModel } from "weftjs";
import { serveAcp } from "weftjs/acp";
import { z } from "zod";

const clock = defineTool({
  name: "current_time",
  description: "The current date and time, in ISO-8601.",
  input: z.object({}),
  execute: () => new Date().toISOString(),
});

const remind = defineTool({
  name: "set_reminder",
  description: "Sets a reminder for the person.",
  input: z.object({ text: z.string(), at: z.string() }),
  needsApproval: true,
  execute: ({ text, at }) => `Reminder "${text}" set for ${at}.`,
});

const model = await resolveModel(process.env.WEFT_MODEL ?? "openai:gpt-4.1-mini", { baseURL: process.env.WEFT_BASE_URL });
const agent = createAgent({ model, tools: [clock, remind], instructions: "You are a helpful assistant. Be brief." });

serveAcp(agent, { input: process.stdin, output: process.stdout }, { agentInfo: { name: "reminder-agent", version: "1.0.0" } });
