import { afterEach, describe, expect, it } from "vitest";

import { FakeModelServer } from "../testing/fake-model-server.js";
import { serverContextWindows, serverRoot } from "./server-context-windows.js";
import { serverModelList } from "./server-models.js";

const servers: FakeModelServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.close();
  }
});

/** A fake server answering only `routes` (each shape as the real server answers it). */
async function server(routes: Record<string, unknown>): Promise<FakeModelServer> {
  const started = await FakeModelServer.start([], { routes });
  servers.push(started);
  return started;
}

/** What `provider`'s server at `url` tells of its models' windows: its list, then its own API. */
async function windowsOf(provider: string, url: string): Promise<Record<string, number>> {
  const models = await serverModelList(url, { timeoutMs: 2_000 });
  return Object.fromEntries(await serverContextWindows({ provider, baseURL: url, timeoutMs: 2_000 }, models));
}

describe("serverContextWindows", () => {
  it("reads vLLM's max_model_len from its model list", async () => {
    const vllm = await server({
      "GET /v1/models": { object: "list", data: [{ id: "Qwen/Qwen3-8B", object: "model", created: 1, owned_by: "vllm", root: "Qwen/Qwen3-8B", parent: null, max_model_len: 8192, permission: [] }] },
    });
    expect(await windowsOf("openai-compatible", vllm.url)).toEqual({ "Qwen/Qwen3-8B": 8192 });
  });

  it("reads OpenRouter's context_length from its model list", async () => {
    const openRouter = await server({
      "GET /v1/models": {
        data: [{ id: "mistralai/mistral-nemo", name: "Mistral: Mistral Nemo", context_length: 131072, pricing: { prompt: "0.0000003", completion: "0.0000003" }, top_provider: { context_length: 131072, max_completion_tokens: null, is_moderated: false } }],
      },
    });
    expect(await windowsOf("openai-compatible", openRouter.url)).toEqual({ "mistralai/mistral-nemo": 131072 });
  });

  it("reads llama.cpp's meta.n_ctx (not n_ctx_train), or asks its /props", async () => {
    const recent = await server({
      "GET /v1/models": { object: "list", data: [{ id: "gemma", object: "model", owned_by: "llamacpp", meta: { n_vocab: 262144, n_ctx: 16384, n_ctx_train: 131072, n_embd: 2560 } }] },
    });
    expect(await windowsOf("openai-compatible", recent.url)).toEqual({ gemma: 16384 });
    const older = await server({
      "GET /v1/models": { object: "list", data: [{ id: "llama-3.2-1b", object: "model", created: 1, owned_by: "llamacpp", meta: { n_ctx_train: 131072 } }] },
      "GET /props": { default_generation_settings: { n_ctx: 4096, n_predict: -1, temperature: 0.8 }, total_slots: 1, chat_template: "llama3" },
    });
    expect(await windowsOf("openai-compatible", older.url)).toEqual({ "llama-3.2-1b": 4096 });
  });

  it("asks LM Studio's own API: a loaded instance's context_length, else max_context_length", async () => {
    const lmStudio = await server({
      "GET /v1/models": { object: "list", data: [{ id: "qwen2.5-7b-instruct", object: "model", owned_by: "organization_owner" }, { id: "gpt-oss-20b", object: "model", owned_by: "organization_owner" }] },
      "GET /api/v1/models": {
        models: [
          { type: "llm", key: "qwen2.5-7b-instruct", display_name: "Qwen2.5 7B", loaded_instances: [{ id: "qwen2.5-7b-instruct", config: { context_length: 16384, flash_attention: true } }], max_context_length: 32768 },
          { type: "llm", key: "gpt-oss-20b", display_name: "gpt-oss 20B", loaded_instances: [], max_context_length: 131072 },
        ],
      },
    });
    expect(await windowsOf("openai-compatible", lmStudio.url)).toEqual({ "qwen2.5-7b-instruct": 16384, "gpt-oss-20b": 131072 });
  });

  it("asks Ollama's /api/show: the Modelfile's num_ctx, else the architecture's context_length", async () => {
    const shown: unknown[] = [];
    const ollama = await server({
      "GET /v1/models": { object: "list", data: [{ id: "gemma3:latest", object: "model", created: 1, owned_by: "library" }, { id: "mystery:7b", object: "model", created: 1, owned_by: "library" }] },
      "POST /api/show": (body: { model?: string }) => {
        shown.push(body);
        return body.model === "gemma3:latest"
          ? { parameters: "temperature 0.7\nnum_ctx 2048", details: { family: "gemma3" }, model_info: { "general.architecture": "gemma3", "gemma3.context_length": 131072 } }
          : { parameters: "stop <|im_end|>", details: { family: "qwen2" }, model_info: { "general.architecture": "qwen2", "qwen2.context_length": 32768, "qwen2.embedding_length": 3584 } };
      },
    });
    expect(await windowsOf("ollama", ollama.url)).toEqual({ "gemma3:latest": 2048, "mystery:7b": 32768 });
    expect(shown).toEqual([{ model: "gemma3:latest" }, { model: "mystery:7b" }]);
  });

  it("tells nothing for a server that says nothing of windows, and nothing fails", async () => {
    const plain = await server({ "GET /v1/models": { object: "list", data: [{ id: "m", object: "model", owned_by: "someone" }] } });
    expect(await windowsOf("openai-compatible", plain.url)).toEqual({});
  });

  it("finds the server's own API at its root, under the base URL's /v1", () => {
    expect(serverRoot("http://127.0.0.1:11434/v1")).toBe("http://127.0.0.1:11434");
    expect(serverRoot("http://host/qwen/v1/")).toBe("http://host/qwen");
    expect(serverRoot("http://host:8080")).toBe("http://host:8080");
  });
});
