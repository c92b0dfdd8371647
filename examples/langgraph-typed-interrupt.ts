// A LangGraph graph that asks the person a typed question before it calls the model:
// `interrupt(value, { responseSchema })` with a Zod schema, which weft asks as a form where the
// editor shows forms (and in words where it does not). Serve it with
//   weft acp --graph examples/langgraph-typed-interrupt.ts
// The model comes from WEFT_MODEL, WEFT_BASE_URL and WEFT_API_KEY, as for `weft acp`.
import { SystemMessage } from "@langchain/core/messages";
import { END, interrupt, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { z } from "zod";

import { chatModel } from "./langgraph-model.js";

const model = chatModel();

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
