// A createAgent() agent served remotely, over ACP's Streamable HTTP and WebSocket transport. Each
// person has a token (WEFT_TOKENS="token:ann,token2:bob") and sees only their own sessions, which
// may be opened in the directory this starts in. The model comes from WEFT_MODEL and WEFT_BASE_URL.
import { createAgent, resolveModel } from "weftjs";
import { bearerTokens, listenHttp, parseTokenList, serveAcpHttp } from "weftjs/acp";

const model = await resolveModel(process.env.WEFT_MODEL ?? "openai:gpt-4.1-mini", { baseURL: process.env.WEFT_BASE_URL });
const agent = createAgent({ model, instructions: "You are a helpful assistant. Be brief." });

const acp = serveAcpHttp(agent, { authenticate: bearerTokens(parseTokenList(process.env.WEFT_TOKENS ?? "")), roots: [process.cwd()] });
const { url } = await listenHttp(acp, { host: "127.0.0.1", port: Number(process.env.PORT ?? 8377) });
process.stderr.write(`Serving on ${new URL("/acp", url).href}\n`);
