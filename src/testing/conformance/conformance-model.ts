// The model an agent under check talks to: the three fake model servers (chat completions,
// Responses, Anthropic Messages) behind one origin, playing one script. Each scenario puts a token of its own in the
// prompts it sends and registers a plan under it; a model request is answered by the plan whose
// token is in its last user message, whichever API the agent called.

import { contentText } from "../../store-core/content-text.js";
import { FakeMessagesServer } from "../fake-messages-server.js";
import { FakeModelOrigin, type UnservedCall } from "../fake-model-origin.js";
import type { FakeModelRequest } from "../fake-model-request.js";
import { type ChatRequest, FakeModelServer } from "../fake-model-server.js";
import type { FakeReply } from "../fake-reply.js";
import { FakeResponsesServer } from "../fake-responses-server.js";

export const MODEL_ID = "conformance-model";

/** A tool the agent offered the model. */
export interface OfferedTool {
  name: string;
  description?: string | undefined;
  parameters?: unknown;
}

/** A model request, the same for every API. */
export interface ModelCall {
  /** The text of the last user message. */
  prompt: string;
  /** How many tool results follow the last user message: 0 on a turn's first call. */
  toolResults: number;
  tools: OfferedTool[];
  /** The whole request as JSON text, to look for what an earlier turn said. */
  raw: string;
}

export type Plan = (call: ModelCall) => FakeReply | Promise<FakeReply>;

export class ConformanceModel {
  private readonly held = new Set<() => void>();
  /** Called with each text chunk just before a server writes it. */
  onText: ((text: string) => void) | undefined;
  /**
   * Called after each model request is planned and each chunk is sent: a scenario waiting on what
   * the model saw must look again then, as an agent that buffers writes nothing meanwhile.
   */
  onActivity: (() => void) | undefined;

  private constructor(
    private readonly plans: Map<string, Plan>,
    private readonly chat: FakeModelServer,
    private readonly responses: FakeResponsesServer,
    private readonly messages: FakeMessagesServer,
    private readonly origin: FakeModelOrigin,
  ) {
    for (const server of [chat, responses, messages]) {
      server.onChunk = (text) => {
        this.onText?.(text);
        this.onActivity?.();
      };
    }
  }

  static async start(): Promise<ConformanceModel> {
    const plans = new Map<string, Plan>();
    const holder: { model?: ConformanceModel } = {};
    const answer = async (call: ModelCall) => {
      const reply = await answerWith(plans, call);
      holder.model?.onActivity?.();
      return reply;
    };
    // An agent's side calls (weft's session title, say) get a short reply, not an error.
    const sideCalls = () => ({ text: "Conformance check" });
    const chat = await FakeModelServer.start((request) => answer(chatCall(request)), { models: [MODEL_ID], sideCalls });
    const responses = await FakeResponsesServer.start((request) => answer(normalCall(request)), { sideCalls });
    const messages = await FakeMessagesServer.start((request) => answer(normalCall(request)), { sideCalls });
    const origin = await FakeModelOrigin.start({ chat, responses, messages });
    holder.model = new ConformanceModel(plans, chat, responses, messages, origin);
    return holder.model;
  }

  /** The origin every API is served at, `http://127.0.0.1:<port>`. */
  get url(): string {
    return this.origin.url;
  }

  /** `<origin>/v1`, the base URL OpenAI's clients take. */
  get v1(): string {
    return this.origin.v1;
  }

  /** The model requests no fake served (a wrong base URL, an API the check does not fake), in order. */
  get unserved(): readonly UnservedCall[] {
    return this.origin.unserved;
  }

  /** The environment that points an agent at the origin. */
  env(): Record<string, string> {
    return {
      WEFT_MODEL: `openai-compatible:${MODEL_ID}`,
      WEFT_BASE_URL: this.origin.v1,
      WEFT_API_KEY: "conformance-key",
      OPENAI_BASE_URL: this.origin.v1,
      OPENAI_API_KEY: "conformance-key",
      // Anthropic's SDK adds /v1 to its base URL itself.
      ANTHROPIC_BASE_URL: this.origin.url,
      ANTHROPIC_API_KEY: "conformance-key",
    };
  }

  /** Answers the prompts that carry `token` with `plan` until it is forgotten. */
  plan(token: string, plan: Plan): void {
    this.plans.set(token, plan);
  }

  forget(token: string): void {
    this.plans.delete(token);
  }

  /** A promise that stays pending until `release()`: a reply awaiting it holds its stream open. */
  hold(): Promise<void> {
    return new Promise((resolve) => this.held.add(resolve));
  }

  /** Lets every held reply go on. */
  release(): void {
    for (const resolve of [...this.held]) {
      resolve();
    }
    this.held.clear();
  }

  async close(): Promise<void> {
    this.release();
    await Promise.all([this.origin.close(), this.chat.close(), this.responses.close(), this.messages.close()]);
  }
}

/** The reply of the plan whose token is in the call's prompt. */
function answerWith(plans: ReadonlyMap<string, Plan>, call: ModelCall): FakeReply | Promise<FakeReply> {
  for (const [token, plan] of plans) {
    if (call.prompt.includes(token)) {
      return plan(call);
    }
  }
  return { text: "The conformance check has no reply scripted for this prompt." };
}

function chatCall(request: ChatRequest): ModelCall {
  const messages = request.messages;
  const last = messages.map((message) => message.role).lastIndexOf("user");
  return {
    prompt: last < 0 ? "" : contentText(messages[last]?.content),
    toolResults: messages.slice(last + 1).filter((message) => message.role === "tool").length,
    tools: (request.tools ?? []).map((tool) => tool.function),
    raw: JSON.stringify(request),
  };
}

function normalCall(request: FakeModelRequest): ModelCall {
  const messages = request.messages;
  const last = messages.map((message) => message.role).lastIndexOf("user");
  const user = messages[last];
  return {
    prompt: user?.role === "user" ? user.text : "",
    toolResults: messages.slice(last + 1).filter((message) => message.role === "tool").length,
    tools: request.tools,
    raw: JSON.stringify(request.body),
  };
}
