// The agent of the remote benchmark (bench/remote.ts), the same graph both ways: served over stdio
// with serveAcp (the default), or with `--http` over HTTP and WebSocket by serveAcpHttp on
// listenHttp, behind a bearer token (BENCH_TOKEN), printing its URL as the first line on stdout.
//
// For a prompt "stream N every D" its one node emits N text deltas, D ms apart (0: all at once),
// each the time it was emitted, in milliseconds on the machine's clock, so the client can tell how
// long each token took to reach it. No model, no store: what is measured is the transport.
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

import { START, StateGraph, messagesChannel, messageText } from "../dist/index.js";
import { bearerTokens, listenHttp, serveAcp, serveAcpHttp } from "../dist/acp/index.js";

const now = () => performance.timeOrigin + performance.now();

const graph = new StateGraph({ name: "timed-streamer", channels: { messages: messagesChannel() } })
  .addNode("stream", async (state, context) => {
    const last = state.messages.at(-1);
    const [, count = "1", every = "0"] = /^stream (\d+)(?: every (\d+))?/.exec(last ? messageText(last) : "") ?? [];
    const delay = Number(every);
    for (let index = 0; index < Number(count) && !context.signal.aborted; index++) {
      if (delay > 0 && index > 0) {
        await sleep(delay);
      }
      context.emit({ type: "text-delta", messageId: "m", delta: `${now().toFixed(3)} ` });
    }
  })
  .addEdge(START, "stream")
  .compile();

const agentInfo = { name: "timed-streamer", version: "1.0.0" };

if (process.argv.includes("--http")) {
  const token = process.env.BENCH_TOKEN;
  if (!token) {
    process.stderr.write("timed-agent: --http needs BENCH_TOKEN\n");
    process.exit(2);
  }
  const server = serveAcpHttp(graph, { authenticate: bearerTokens({ [token]: "bench" }), roots: [process.cwd()] }, { agentInfo });
  const listener = await listenHttp(server, { port: 0 });
  process.stdout.write(`${new URL("/acp", listener.url).href}\n`);
  // The benchmark ends the server by closing its stdin.
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once("end", resolve));
  await server.close();
  await listener.close();
} else {
  const server = serveAcp(graph, { input: process.stdin, output: process.stdout }, { agentInfo });
  await server.closed;
}
