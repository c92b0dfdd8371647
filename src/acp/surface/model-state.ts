// The models a session offers in the shape clients of the older, unstable model API read: the
// `models` field of session/new, load and resume answers (`currentModelId`, `availableModels`)
// and `session/set_model`. Both come from the session's model config option (a select option of
// category `model`), the protocol's own model picker, so the two always agree.

import { RequestError, type SessionConfigOption } from "@agentclientprotocol/sdk";

/** One model a client may pick, as the unstable API names it. */
export interface AcpModelInfo {
  modelId: string;
  name: string;
  description?: string | undefined;
}

/** The unstable API's `models` field: the models offered and the one the session uses. */
export interface AcpModelState {
  currentModelId: string;
  availableModels: AcpModelInfo[];
}

/** The unstable API's method to pick a session's model. */
export const SET_MODEL_METHOD = "session/set_model";

/** `session/set_model`'s parameters. */
export interface SetModelParams {
  sessionId: string;
  modelId: string;
}

/** The session's model option among `options`: the first select option of category `model`. */
export function modelOption(options: readonly SessionConfigOption[]): Extract<SessionConfigOption, { type: "select" }> | undefined {
  return options.find((option): option is Extract<SessionConfigOption, { type: "select" }> => option.type === "select" && option.category === "model");
}

/** The `models` field for a session whose option list is `options`, or undefined when it offers no model option. */
export function modelState(options: readonly SessionConfigOption[]): AcpModelState | undefined {
  const option = modelOption(options);
  if (!option) {
    return undefined;
  }
  const choices = option.options.flatMap((entry) => ("group" in entry ? entry.options : [entry]));
  return {
    currentModelId: option.currentValue,
    availableModels: choices.map((choice) => {
      const model: AcpModelInfo = { modelId: choice.value, name: choice.name };
      if (typeof choice.description === "string") {
        model.description = choice.description;
      }
      return model;
    }),
  };
}

/** Checks `session/set_model`'s parameters: a session id and a model id, both strings. */
export function readSetModelParams(params: unknown): SetModelParams {
  const value = (params ?? {}) as Partial<Record<keyof SetModelParams, unknown>>;
  if (typeof value.sessionId !== "string" || typeof value.modelId !== "string") {
    throw RequestError.invalidParams(undefined, "session/set_model takes a sessionId and a modelId, both strings.");
  }
  return { sessionId: value.sessionId, modelId: value.modelId };
}
