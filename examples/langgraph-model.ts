// The chat model of the LangGraph examples, from the settings `weft acp` reads: WEFT_MODEL
// (openai:<id>, or openai-compatible:<id> with WEFT_BASE_URL), WEFT_BASE_URL and WEFT_API_KEY
// (else OPENAI_API_KEY). `weft acp --graph … --model …` sets WEFT_MODEL too.
import { ChatOpenAI } from "@langchain/openai";

export function chatModel(): ChatOpenAI {
  const spec = process.env.WEFT_MODEL ?? "openai:gpt-4.1-mini";
  const [, provider, model] = /^(openai|openai-compatible):(.+)$/.exec(spec) ?? [];
  if (!provider || !model) {
    throw new Error(`The LangGraph examples use openai:<model> or openai-compatible:<model>, not ${JSON.stringify(spec)}.`);
  }
  const baseURL = process.env.WEFT_BASE_URL;
  if (provider === "openai-compatible" && !baseURL) {
    throw new Error(`${spec} needs WEFT_BASE_URL (or --base-url), the server's address.`);
  }
  // A local OpenAI-compatible server usually takes any key.
  const apiKey = process.env.WEFT_API_KEY ?? process.env.OPENAI_API_KEY ?? (provider === "openai-compatible" ? "none" : undefined);
  return new ChatOpenAI({ model, ...(apiKey ? { apiKey } : {}), ...(baseURL ? { configuration: { baseURL } } : {}) });
}
