// The floor under a replay: an agent with no SDK and no store that answers initialize, and answers
// session/load by writing lines it has ready (a JSON array of session updates, read from the file
// named on its command line at start) and its answer, in one write. What is left of its time is the
// pipe and the client reading 3,000 updates.
import { readFileSync } from "node:fs";

const updates = JSON.parse(readFileSync(process.argv[2], "utf8"));
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
    const message = JSON.parse(buffer.slice(0, newline));
    buffer = buffer.slice(newline + 1);
    if (message.method === "initialize") {
      process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [] } })}\n`);
    } else if (message.method === "session/load") {
      const sessionId = message.params.sessionId;
      const lines = updates.map((update) => `${JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update } })}\n`);
      process.stdout.write(`${lines.join("")}${JSON.stringify({ jsonrpc: "2.0", id: message.id, result: {} })}\n`);
    }
  }
});
process.stdin.on("end", () => process.exit(0));
