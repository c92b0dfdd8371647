// How a graph's tool call is shown when the person is asked about it: LangGraph tools say nothing
// of their calls themselves, so the title names the tool with its arguments and the content shows
// the arguments in full (with the reviewer's description, when one was written), so that nothing
// is approved blind.

import type { ToolDisplay } from "../types/tool-display.js";

/** The most characters of one argument's value in a title. */
const TITLE_VALUE_CHARS = 40;
/** The most characters of a title. */
const TITLE_CHARS = 160;

/** `write_file(path: "notes.md", content: "# Plan…")`: the tool and its arguments, each shortened. */
export function callTitle(toolName: string, args: unknown): string {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return args === undefined ? toolName : `${toolName}(${shortened(JSON.stringify(args) ?? "", TITLE_VALUE_CHARS)})`;
  }
  const shown = Object.entries(args).map(([key, value]) => `${key}: ${shortened(JSON.stringify(value) ?? "undefined", TITLE_VALUE_CHARS)}`);
  return shortened(`${toolName}(${shown.join(", ")})`, TITLE_CHARS);
}

/**
 * What the permission request shows of the call: the description the graph gave it (without the
 * tool and arguments LangChain's middleware repeats in its default one), then the arguments as
 * JSON, whole.
 */
export function callDisplay(args: unknown, description?: string | undefined): ToolDisplay[] {
  const said = description === undefined ? "" : withoutRepeatedCall(description).trim();
  const json = JSON.stringify(args ?? null, null, 2);
  const text = `${said === "" ? "" : `${said}\n\n`}Arguments:\n\`\`\`json\n${json}\n\`\`\``;
  return [{ type: "text", text }];
}

/**
 * A description less what the call shows anyway: LangChain's default is its prefix, then
 * "Tool: <name>" and "Args: <JSON>"; a description that is only that says nothing more.
 */
function withoutRepeatedCall(description: string): string {
  const at = description.search(/\n\s*Tool: [^\n]*\n\s*Args: /);
  const rest = at < 0 ? description : description.slice(0, at);
  return rest.trim() === "Tool execution requires approval" ? "" : rest;
}

function shortened(text: string, most: number): string {
  return text.length > most ? `${text.slice(0, most - 1)}…` : text;
}
