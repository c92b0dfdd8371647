// How `weft chat` shows a session's updates in a terminal: the agent's text as it streams, thoughts
// dimmed, each tool call as a line with its status, diffs as changed lines, and plans as lists.

import type * as acp from "@agentclientprotocol/sdk";

export interface Style {
  dim(text: string): string;
  bold(text: string): string;
  green(text: string): string;
  red(text: string): string;
  cyan(text: string): string;
  yellow(text: string): string;
}

export function terminalStyle(color: boolean): Style {
  const wrap = (open: number, close: number) => (text: string) => (color ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return { dim: wrap(2, 22), bold: wrap(1, 22), green: wrap(32, 39), red: wrap(31, 39), cyan: wrap(36, 39), yellow: wrap(33, 39) };
}

type Section = "none" | "text" | "thought" | "user";

/** Turns updates into terminal text; keeps track of what kind of output the last line was. */
export class UpdateRenderer {
  private section: Section = "none";
  private readonly titles = new Map<string, string>();

  constructor(
    private readonly write: (text: string) => void,
    private readonly style: Style,
  ) {}

  /** Ends whatever was being written, so the next output starts on a fresh line. */
  breakLine(): void {
    if (this.section !== "none") {
      this.write("\n");
      this.section = "none";
    }
  }

  render(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
        this.enter("text", this.style.bold(this.style.cyan("weft › ")));
        this.write(blockText(update.content));
        break;
      case "agent_thought_chunk":
        this.enter("thought", this.style.dim("thinking › "));
        this.write(this.style.dim(blockText(update.content)));
        break;
      case "user_message_chunk":
        this.enter("user", this.style.bold("you › "));
        this.write(blockText(update.content));
        break;
      case "tool_call": {
        this.titles.set(update.toolCallId, update.title);
        this.breakLine();
        this.write(`  ${this.style.yellow("⚙")} ${update.title} ${this.style.dim(`(${update.kind ?? "other"})`)}\n`);
        this.finish(update.toolCallId, update.status, update.content);
        break;
      }
      case "tool_call_update": {
        if (update.title) {
          this.titles.set(update.toolCallId, update.title);
        }
        this.breakLine();
        this.finish(update.toolCallId, update.status, update.content);
        break;
      }
      case "plan":
        this.breakLine();
        this.write(`  ${this.style.bold("plan")}\n`);
        for (const entry of update.entries) {
          const mark = entry.status === "completed" ? this.style.green("✓") : entry.status === "in_progress" ? this.style.yellow("›") : "·";
          this.write(`    ${mark} ${entry.content}\n`);
        }
        break;
      default:
        break;
    }
  }

  private enter(section: Section, label: string): void {
    if (this.section !== section) {
      this.breakLine();
      this.write(label);
      this.section = section;
    }
  }

  private finish(toolCallId: string, status: acp.ToolCallStatus | null | undefined, content: acp.ToolCallContent[] | null | undefined): void {
    const title = this.titles.get(toolCallId) ?? toolCallId;
    if (status === "completed" || status === "failed") {
      this.write(`  ${status === "completed" ? this.style.green("✓") : this.style.red("✗")} ${title}\n`);
    }
    for (const item of content ?? []) {
      if (item.type === "diff") {
        this.write(renderDiff(item.path, item.oldText ?? null, item.newText, this.style));
      } else if (item.type === "content" && status === "failed") {
        this.write(indent(this.style.dim(firstLines(blockText(item.content), 6))));
      } else if (item.type === "terminal") {
        this.write(indent(this.style.dim(`[terminal ${item.terminalId}]`)));
      }
    }
  }
}

function blockText(block: acp.ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "resource_link":
      return `[${block.name}](${block.uri})`;
    case "resource":
      return `[${block.resource.uri}]`;
    default:
      return `[${block.type}]`;
  }
}

function firstLines(text: string, count: number): string {
  const lines = text.split("\n");
  return lines.length > count ? `${lines.slice(0, count).join("\n")}\n… ${lines.length - count} more lines` : text;
}

function indent(text: string): string {
  return `${text
    .split("\n")
    .map((line) => `      ${line}`)
    .join("\n")}\n`;
}

/** The changed lines of a diff: the lines between the common start and the common end. */
export function renderDiff(path: string, oldText: string | null, newText: string, style: Style): string {
  const lines = (text: string) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));
  const before = oldText === null ? [] : lines(oldText);
  const after = lines(newText);
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) {
    start++;
  }
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) {
    end++;
  }
  const removed = before.slice(start, before.length - end);
  const added = after.slice(start, after.length - end);
  const shownLines = [style.dim(`--- ${oldText === null ? "(new file)" : path}`), style.dim(`+++ ${path}`), style.dim(`@@ line ${start + 1} @@`)];
  const shown = (prefix: string, list: string[], color: (text: string) => string) =>
    list.slice(0, 40).map((line) => color(`${prefix} ${line}`)).concat(list.length > 40 ? [style.dim(`  … ${list.length - 40} more lines`)] : []);
  shownLines.push(...shown("-", removed, style.red), ...shown("+", added, style.green));
  return indent(shownLines.join("\n"));
}
