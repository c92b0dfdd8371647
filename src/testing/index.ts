// Fakes for testing agents built with weft: a scripted model, and fake model servers for the
// OpenAI-compatible chat-completions, OpenAI Responses and Anthropic Messages APIs.

export { type FakeReply, type FakeScript, type ChatRequest, type FakeModelServerOptions, FakeModelServer } from "./fake-model-server.js";
export { type FakeModelOptions } from "./fake-http-server.js";
export { type FakeModelMessage, type FakeModelRequest, type FakeModelToolCall } from "./fake-model-request.js";
export { type FakeScriptFor } from "./fake-reply.js";
export { FakeResponsesServer } from "./fake-responses-server.js";
export { FakeMessagesServer } from "./fake-messages-server.js";
export { type Script, type ScriptedReply, ScriptedModel } from "./scripted-model.js";
export * from "./conformance/index.js";
