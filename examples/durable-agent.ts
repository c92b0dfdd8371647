// An agent whose sessions survive restarts: sessions and the graph's checkpoints both live in one
// SQLite file, so an editor can reopen a session (even one in the middle of a turn) after a crash.
// The model comes from WEFT_MODEL and WEFT_BASE_URL, as for serve-agent.ts.
import { createAgent, resolveModel } from "weftjs";
import { serveAcp, storeAcpSessions } from "weftjs/acp";
import { SqliteStore } from "weftjs/stores/sqlite";

const model = await resolveModel(process.env.WEFT_MODEL ?? "openai:gpt-4.1-mini", { baseURL: process.env.WEFT_BASE_URL }).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
const store = new SqliteStore({ path: "sessions.db" });
const agent = createAgent({ model, store });

serveAcp(agent, { input: process.stdin, output: process.stdout }, { sessions: storeAcpSessions(store) });
