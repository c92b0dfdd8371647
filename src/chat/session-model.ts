// Which model a session uses, in words for the chat's header: from the session's model config
// option (a select option of category `model`), or else from the `models` field that agents of the
// older, unstable model API answer session/new and session/load with.

import type * as acp from "@agentclientprotocol/sdk";

/** The model's name (with its id when they differ), or undefined when the agent does not say. */
export function sessionModel(configOptions: readonly acp.SessionConfigOption[], response: unknown): string | undefined {
  const option = configOptions.find((candidate) => candidate.type === "select" && candidate.category === "model");
  if (option?.type === "select") {
    const choice = option.options.flatMap((entry) => ("options" in entry ? entry.options : [entry])).find((entry) => entry.value === option.currentValue);
    return named(choice?.name, option.currentValue);
  }
  const models = (response as { models?: { currentModelId?: unknown; availableModels?: unknown } } | null | undefined)?.models;
  if (typeof models?.currentModelId !== "string") {
    return undefined;
  }
  const id = models.currentModelId;
  const available = Array.isArray(models.availableModels) ? (models.availableModels as Array<{ modelId?: unknown; name?: unknown }>) : [];
  const name = available.find((model) => model.modelId === id)?.name;
  return named(typeof name === "string" ? name : undefined, id);
}

function named(name: string | undefined, id: string): string {
  return name === undefined || name === id ? id : `${name} (${id})`;
}
