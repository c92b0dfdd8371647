// A LangGraph graph that asks the person a typed question before it calls the model:
// `interrupt(value, { responseSchema })` with a Zod schema, which weft asks as a form where the
// editor shows forms (and in words where it does not). Serve it with
//   weft acp --graph examples/langgraph-typed-interrupt.ts
// The model comes from WEFT_MODEL, WEFT_BASE_URL and WEFT_API_KEY, as for `weft acp`.
import { SystemMessage } from "@langchain/core/messages";
import { END, interrupt, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";

// The model as `weft acp` takes it: WEFT_MODEL (openai:<id>, or openai-compatible:<id> with WEFT_BASE_URL) and WEFT_API_KEY.
const model = new ChatOpenAI({
  model: (process.env.WEFT_MODEL ?? "openai:gpt-4.1-mini").replace(/^openai(-compatible)?:/, ""),
  apiKey: process.env.WEFT_API_KEY ?? process.env.OPENAI_API_KEY ?? "none",
  configuration: { baseURL: process.env.WEFT_BASE_URL ?? null },
});

/** What the form asks: a flat object of plain fields, which an editor can show as a form. */
const tripDetails = z.object({
  city: z.string().describe("The city to visit"),
  nights: z.number().int().min(1).max(30).describe("How many nights"),
});

export default new StateGraph(MessagesAnnotation)
  .addNode("plan", async (state) => {
    // The run pauses here until the person answers; LangGraph checks the answer against the schema.
    const trip = interrupt({ question: "Where to, and for how long?" }, { responseSchema: tripDetails });
    const reply = await model.invoke([new SystemMessage(`Plan a trip to ${trip.city} for ${trip.nights} nights. Be brief.`), ...state.messages]);
    return { messages: [reply] };
  })
  .addEdge(START, "plan")
  .addEdge("plan", END)
  .compile({ name: "trip-planner" });
