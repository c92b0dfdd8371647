// How a tool call looks in the editor: its kind (guessed from the tool's name unless the
// integrator says), a title, the files it touches, and its content. Also keeps tool call ids unique
// within a session, since some models reuse ids like `call_1` turn after turn.

import { isAbsolute, resolve } from "node:path";

import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";

import type { ToolDisplay, ToolLocation } from "../../types/tool-display.js";

/** What a tool call does, so the editor can show it: ACP's tool kinds, as the SDK defines them. */
export type AcpToolKind = ToolKind;

const KIND_WORDS: Array<[AcpToolKind, readonly string[]]> = [
  ["delete", ["delete", "remove", "rm", "unlink", "erase"]],
  ["move", ["move", "rename", "mv"]],
  ["edit", ["write", "edit", "patch", "replace", "create", "update", "apply", "insert", "modify", "save", "append"]],
  ["execute", ["run", "exec", "execute", "shell", "bash", "command", "terminal", "sh", "cmd", "spawn"]],
  ["search", ["search", "grep", "find", "glob", "list", "ls", "query", "lookup"]],
  ["fetch", ["fetch", "http", "web", "download", "curl", "browse", "url", "request"]],
  ["read", ["read", "view", "cat", "get", "open", "show", "load"]],
  ["think", ["think", "reason", "reflect"]],
];

/** Words that name a plan or a to-do list: a tool about one only thinks, whatever its verb (`update_plan`, `todo_write`). */
const PLAN_WORDS: readonly string[] = ["plan", "plans", "todo", "todos", "checklist"];

const guessed = new Map<string, AcpToolKind>();

/**
 * A kind from the words of a tool's name (`read_file` → read, `runCommand` → execute). A tool that
 * keeps a plan or a to-do list is `think`, not `edit`: it changes no file.
 */
export function guessToolKind(name: string): AcpToolKind {
  let kind = guessed.get(name);
  if (kind === undefined) {
    kind = kindFromWords(name);
    guessed.set(name, kind);
  }
  return kind;
}

function kindFromWords(name: string): AcpToolKind {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.some((word) => PLAN_WORDS.includes(word))) {
    return "think";
  }
  for (const [kind, keys] of KIND_WORDS) {
    if (words.some((word) => keys.includes(word))) {
      return kind;
    }
  }
  return "other";
}

const PATH_KEYS = ["path", "file", "filePath", "file_path", "filename", "target", "source", "destination", "dir", "directory"];
const TITLE_KEYS = [...PATH_KEYS, "command", "cmd", "query", "pattern", "url", "name"];

/** "read_file src/app.ts": the tool's name and its most telling argument. */
export function toolTitle(name: string, input: unknown): string {
  if (input && typeof input === "object") {
    for (const key of TITLE_KEYS) {
      const value = (input as Record<string, unknown>)[key];
      if (typeof value === "string" && value.length > 0) {
        const shown = value.length > 80 ? `${value.slice(0, 77)}…` : value;
        return `${name} ${shown}`;
      }
      if (Array.isArray(value) && typeof value[0] === "string") {
        return `${name} ${value.join(" ").slice(0, 80)}`;
      }
    }
  }
  return name;
}

/** Absolute paths named by path-like arguments, for the editor to follow along. */
export function toolLocations(input: unknown, cwd: string): ToolCallLocation[] {
  if (!input || typeof input !== "object") {
    return [];
  }
  const record = input as Record<string, unknown>;
  const locations: ToolCallLocation[] = [];
  // Looked up once a path is found: most inputs name one path, many none (a replay maps thousands).
  let line: number | undefined;
  let lineRead = false;
  for (const key of PATH_KEYS) {
    const value = record[key];
    if (typeof value !== "string" && !Array.isArray(value)) {
      continue;
    }
    if (!lineRead) {
      line = lineOf(record);
      lineRead = true;
    }
    if (typeof value === "string") {
      addLocation(locations, value, cwd, line);
    } else {
      for (const item of value as unknown[]) {
        if (typeof item === "string") {
          addLocation(locations, item, cwd, line);
        }
      }
    }
  }
  return locations;
}

/** The line a tool's input points at: the first of its line-like arguments that is a whole number above 0. */
function lineOf(record: Record<string, unknown>): number | undefined {
  for (const value of [record.line, record.startLine, record.start_line, record.offset]) {
    if (typeof value === "number" && Number.isInteger(value) && value > 0) {
      return value;
    }
  }
  return undefined;
}

function addLocation(locations: ToolCallLocation[], path: string, cwd: string, line: number | undefined): void {
  if (path.length === 0 || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    return;
  }
  const location: ToolCallLocation = { path: isAbsolute(path) ? path : resolve(cwd, path) };
  if (line !== undefined) {
    location.line = line;
  }
  locations.push(location);
}

/** The files a tool reported, as ACP locations: a line only where there is one. */
export function wireLocations(locations: readonly ToolLocation[]): ToolCallLocation[] {
  return locations.map((location) => (location.line === undefined ? { path: location.path } : { path: location.path, line: location.line }));
}

/** The most characters of output one tool call sends the editor. */
export const DEFAULT_CONTENT_LIMIT = 64 * 1024;

/** Text cut to a limit, keeping its head and tail with a note of what was left out. */
export function boundText(text: string, limit: number): string {
  if (text.length <= limit) {
    return text;
  }
  const half = Math.floor((limit - 80) / 2);
  const cut = text.length - half * 2;
  return `${text.slice(0, half)}\n… [${cut} characters not shown] …\n${text.slice(text.length - half)}`;
}

/** ACP tool call content for what a tool showed, or else for its output as text. */
export function toolContent(display: readonly ToolDisplay[] | undefined, output: unknown, limit: number): ToolCallContent[] {
  if (display && display.length > 0) {
    return display.map((item): ToolCallContent => {
      switch (item.type) {
        case "text":
          return { type: "content", content: { type: "text", text: boundText(item.text, limit) } };
        case "diff":
          return { type: "diff", path: item.path, oldText: item.oldText, newText: item.newText };
        case "terminal":
          return { type: "terminal", terminalId: item.terminalId };
      }
    });
  }
  const text = outputText(output);
  return text === "" ? [] : [{ type: "content", content: { type: "text", text: boundText(text, limit) } }];
}

export function outputText(output: unknown): string {
  if (output === undefined || output === null) {
    return "";
  }
  return typeof output === "string" ? output : JSON.stringify(output, null, 2);
}

/**
 * Maps a graph's tool call ids to ids unique within a session. The first call with an id keeps
 * it; a later call that reuses it gets `id~2`, `id~3`, … Events about a call (start, end,
 * approval) use the id given to its most recent appearance.
 */
export class ToolCallIds {
  private readonly used = new Set<string>();
  private readonly latest = new Map<string, string>();

  /** A new call with this graph id appeared. */
  allocate(graphId: string): string {
    let id = graphId;
    for (let suffix = 2; this.used.has(id); suffix++) {
      id = `${graphId}~${suffix}`;
    }
    this.used.add(id);
    this.latest.set(graphId, id);
    return id;
  }

  /** The session id for a call already seen (or a fresh one for a call not announced before). */
  of(graphId: string): string {
    return this.latest.get(graphId) ?? this.allocate(graphId);
  }

  has(graphId: string): boolean {
    return this.latest.has(graphId);
  }
}
