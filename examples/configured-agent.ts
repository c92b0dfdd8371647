// An agent the person sets up in their editor: a model picker, two modes and a /note command. Each
// session keeps its choices (across restarts too, with a long-term session store), and the run sees
// them as `config`: the model is picked for every call, and in ask mode every tool call needs
// approval. `/note buy milk` runs as a prompt of its own; `/note` alone is answered at once.
import { createAgent, defineTool, lazyModel } from "weftjs";
import { serveAcp } from "weftjs/acp";
import { z } from "zod";

const models = { fast: lazyModel("openai:gpt-4.1-mini"), smart: lazyModel("openai:gpt-4.1") };

const save = defineTool({
  name: "save_note",
  description: "Saves a note for the person.",
  input: z.object({ text: z.string() }),
  execute: ({ text }) => `Saved: ${text}`,
});

const agent = createAgent({
  model: ({ config }) => (config.model === "smart" ? models.smart : models.fast),
  tools: [save],
  instructions: "You keep notes for the person. Be brief.",
  approvals: ({ config }) => config.mode === "ask",
});

serveAcp(agent, { input: process.stdin, output: process.stdout }, {
  agentInfo: { name: "notes-agent", version: "1.0.0" },
  configOptions: [
    {
      type: "select",
      id: "model",
      name: "Model",
      category: "model",
      default: "fast",
      options: [
        { value: "fast", name: "GPT-4.1 mini" },
        { value: "smart", name: "GPT-4.1", description: "Slower, more careful" },
      ],
    },
  ],
  modes: {
    default: "ask",
    available: [
      { id: "ask", name: "Ask", description: "Asks before each tool call" },
      { id: "auto", name: "Auto", description: "Runs tools without asking" },
    ],
  },
  commands: [
    {
      name: "note",
      description: "Saves a note, word for word",
      hint: "the note",
      run: ({ input }) => (input ? { prompt: `Save this note exactly as written: ${input}` } : { reply: "Type the note after /note." }),
    },
  ],
});
