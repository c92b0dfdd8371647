// A graph built by hand and served to an editor: it keeps the session's notes in a channel of its
// own (a reducer adds each prompt, or clears them all), routes each prompt with a conditional edge,
// and asks before it clears them (an interrupt, answered by the next prompt).
// Run it as the agent command of any ACP editor: `npx tsx examples/notes-graph.ts`.
import { END, type Message, messagesChannel, messageText, reducerChannel, START, StateGraph } from "weftjs";
import { serveAcp } from "weftjs/acp";

type NotesWrite = { add: string } | "clear";

const graph = new StateGraph({
  name: "notes",
  channels: {
    messages: messagesChannel(),
    notes: reducerChannel<string[], NotesWrite>([], (notes, write) => (write === "clear" ? [] : [...notes, write.add])),
  },
})
  .addNode("add", (state, context) => {
    const note = lastPrompt(state.messages);
    context.emit({ type: "text-delta", messageId: `reply-${state.messages.length}`, delta: `Noted. Notes so far: ${[...state.notes, note].join("; ")}.` });
    return { notes: { add: note } };
  })
  .addNode("clear", (state, context) => {
    // The run pauses here until the person answers; then this node runs again and gets the answer.
    const answer = context.interrupt<string>(`Clear all ${state.notes.length} notes? Answer yes or no.`);
    const yes = /^\s*y/i.test(answer);
    context.emit({ type: "text-delta", messageId: `reply-${state.messages.length}`, delta: yes ? "Cleared." : "Kept them." });
    return yes ? { notes: "clear" } : {};
  })
  .addConditionalEdges(START, (state) => (lastPrompt(state.messages).toLowerCase() === "clear" ? "clear" : "add"))
  .addEdge("add", END)
  .addEdge("clear", END)
  .compile();

function lastPrompt(messages: readonly Message[]): string {
  const last = messages.at(-1);
  return last ? messageText(last).trim() : "";
}

serveAcp(graph, { input: process.stdin, output: process.stdout }, { agentInfo: { name: "notes", version: "1.0.0" } });
