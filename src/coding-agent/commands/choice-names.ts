// Matching what a person typed after a command (`/mode plan`, `/model Smart`) against a list of
// choices, by value or by name, and listing the choices in a reply.

/** One value a person can pick, with the name the editor shows for it. */
export interface NamedChoice {
  value: string;
  name: string;
  description?: string | undefined;
}

/** The choice `typed` names: its value exactly, else its value or name ignoring case and spaces. */
export function findChoice(choices: readonly NamedChoice[], typed: string): NamedChoice | undefined {
  const squash = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, "");
  return choices.find((choice) => choice.value === typed) ?? choices.find((choice) => squash(choice.value) === squash(typed) || squash(choice.name) === squash(typed));
}

/** The choices as lines of a reply, the current one marked. */
export function listChoices(choices: readonly NamedChoice[], current: unknown): string {
  return choices.map((choice) => `- ${choice.value}${choice.name !== choice.value ? ` (${choice.name})` : ""}${choice.value === current ? ", current" : ""}${choice.description ? `: ${choice.description}` : ""}`).join("\n");
}
