// Fakes for testing agents built with weft: a scripted model and a fake OpenAI-compatible server.

export { type FakeReply, type FakeScript, type ChatRequest, type FakeModelServerOptions, FakeModelServer } from "./fake-model-server.js";
export { type Script, type ScriptedReply, ScriptedModel } from "./scripted-model.js";
