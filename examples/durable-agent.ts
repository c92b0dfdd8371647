// An agent whose sessions survive restarts: sessions and the graph's checkpoints both live in one
// SQLite file, so an editor can reopen a session (even one in the middle of a turn) after a crash.
import { createAgent, resolveModel } from "weftjs";
import { serveAcp, storeAcpSessions } from "weftjs/acp";
import { SqliteStore } from "weftjs/stores/sqlite";

const store = new SqliteStore({ path: "sessions.db" });
const agent = createAgent({ model: await resolveModel(process.env.WEFT_MODEL ?? "openai:gpt-4.1-mini"), store });

serveAcp(agent, { input: process.stdin, output: process.stdout }, { sessions: storeAcpSessions(store) });
