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
/** The context window the fake model claims, in tokens: given as WEFT_CONTEXT_WINDOW, since no API of the fakes tells it. */
export const CONTEXT_WINDOW = 128_000;

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
  /** The system or developer text, for telling a side call from a turn. */
  system: string;
  /** The request as the API's own JSON. */
  body: Record<string, unknown>;
}

export type Plan = (call: ModelCall) => FakeReply | Promise<FakeReply>;

export class ConformanceModel {
  /** The agent's side calls (titles, summaries), each answered with a short neutral reply, never a scenario's. */
  readonly sideCalls: Array<{ prompt: string; reason: string }> = [];
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
    const turnCalls: ModelCall[] = [];
    const answer = async (call: ModelCall) => {
      const side = sideCallReason(call, turnCalls);
      if (side) {
        holder.model?.sideCalls.push({ prompt: call.prompt, reason: side });
        return sideReply(call);
      }
      turnCalls.push(call);
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
      WEFT_CONTEXT_WINDOW: String(CONTEXT_WINDOW),
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

/**
 * Why a request is an agent's side call rather than its turn's, or undefined when it is not one:
 * it asks for a structured title or summary, its instructions ask for one, it allows only a few
 * tokens, or it offers no tools where the turn it echoes offered some. Claude Code and Codex make
 * such calls beside a turn, with the user's words in them, so the script must not answer them.
 */
export function sideCallReason(call: ModelCall, turnCalls: readonly ModelCall[]): string | undefined {
  const body = call.body as { output_config?: { format?: unknown }; text?: { format?: unknown }; response_format?: { json_schema?: unknown } };
  const formats = [body.output_config?.format, body.text?.format, body.response_format?.json_schema];
  const asked = formats.flatMap((format) => Object.keys((format as { schema?: { properties?: object } } | undefined)?.schema?.properties ?? {}));
  if (asked.some((name) => /^(title|summary)$/i.test(name))) {
    return `its output schema asks for ${asked.join(", ")}`;
  }
  const instruction = /\b(generate|write|give|create|suggest)\b[^.]{0,40}\b(title|summary)\b|\bnaming (a|the|this) (coding )?(session|conversation)\b|\bsummari[sz]e (this|the) conversation\b/i;
  // The start of the system text only: a coding agent's own long instructions may mention summaries.
  const said = [call.system.slice(0, 300), call.prompt].find((text) => instruction.test(text));
  if (said !== undefined) {
    return `it asks for a title or a summary (${JSON.stringify(instruction.exec(said)?.[0])})`;
  }
  const limit = [call.body.max_tokens, call.body.max_output_tokens, call.body.max_completion_tokens].find((value) => typeof value === "number");
  if (typeof limit === "number" && limit <= 64) {
    return `it allows only ${limit} tokens`;
  }
  if (call.tools.length === 0 && call.toolResults === 0 && turnCalls.some((turn) => turn.prompt === call.prompt && turn.tools.length > 0)) {
    return "it offers no tools where the turn with its prompt offered some";
  }
  return undefined;
}

/** A short neutral answer to a side call: a title where one is asked for as JSON. */
function sideReply(call: ModelCall): FakeReply {
  return { text: /\btitle\b/i.test(JSON.stringify([call.body.output_config, call.body.text, call.body.response_format])) ? JSON.stringify({ title: "Conformance check" }) : "Conformance check" };
}

function chatCall(request: ChatRequest): ModelCall {
  const messages = request.messages;
  const last = messages.map((message) => message.role).lastIndexOf("user");
  return {
    prompt: last < 0 ? "" : contentText(messages[last]?.content),
    toolResults: messages.slice(last + 1).filter((message) => message.role === "tool").length,
    tools: (request.tools ?? []).map((tool) => tool.function),
    raw: JSON.stringify(request),
    system: messages.filter((message) => message.role === "system" || message.role === "developer").map((message) => contentText(message.content)).join("\n\n"),
    body: request,
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
    system: request.system,
    body: request.body,
  };
}
