// How `weft chat` shows a session's updates in a terminal: the agent's text as it streams (as
// rendered markdown on a terminal), thoughts dimmed, each tool call as a line with its status and
// its command's output, diffs as changed lines (before approval too), plans as checklists, usage.

import type * as acp from "@agentclientprotocol/sdk";

import { CommandOutput } from "./command-output.js";
import type { TerminalListener } from "./local-terminals.js";
import { MarkdownBlocks, type MarkdownRender, visibleWidth } from "./markdown.js";
import { statusLine } from "./status-line.js";
import type { Style } from "./terminal-style.js";

// Kept here too, where chat's other files have always found them.
export { type Style, terminalStyle } from "./terminal-style.js";

type Section = "none" | "text" | "thought" | "user";

/** Turns updates into terminal text; keeps track of what kind of output the last line was. */
export class UpdateRenderer {
  /** The name on the agent's replies (the agent's own, from initialize). */
  agentName = "weft";
  /** Renders the agent's markdown; without it replies are written as they come, plain. */
  markdown: MarkdownRender | undefined;
  private section: Section = "none";
  private readonly titles = new Map<string, string>();
  private readonly blocks = new MarkdownBlocks();
  /** How many rendered blocks the reply being written has had. */
  private blocksWritten = 0;
  /** Diffs already shown, per tool call, so a preview is not shown again when the call ends. */
  private readonly shownDiffs = new Map<string, Set<string>>();
  /** Commands run here whose output is being shown as it comes, and those already shown. */
  private readonly liveOutput = new Map<string, CommandOutput>();
  private readonly shownTerminals = new Set<string>();
  private usage: acp.UsageUpdate | undefined;
  /** The message the section being written belongs to, when the agent says (a chunk's messageId). */
  private messageId: string | undefined;
  /** The compactions already told, by id, with the status told. */
  private readonly compactions = new Map<string, string>();

  constructor(
    private readonly write: (text: string) => void,
    private readonly style: Style,
  ) {}

  /** Ends whatever was being written, so the next output starts on a fresh line. */
  breakLine(): void {
    if (this.section === "text" && this.markdown) {
      this.writeMarkdown(this.blocks.finish());
    }
    if (this.section !== "none") {
      this.write("\n");
      this.section = "none";
    }
  }

  render(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
        this.enter("text", this.style.bold(this.style.cyan(`${this.agentName} › `)), update.messageId);
        if (this.markdown) {
          this.writeMarkdown(this.blocks.push(blockText(update.content)));
        } else {
          this.write(blockText(update.content));
        }
        break;
      case "agent_thought_chunk":
        this.enter("thought", this.style.dim("thinking › "), update.messageId);
        this.write(this.style.dim(blockText(update.content)));
        break;
      case "user_message_chunk":
        // Two prompts in a row (a replayed /compact and the next) are two lines, not one.
        this.enter("user", this.style.bold("you › "), update.messageId);
        this.write(blockText(update.content));
        break;
      case "tool_call": {
        this.titles.set(update.toolCallId, update.title);
        this.breakLine();
        this.write(`  ${this.style.yellow("⚙")} ${update.title} ${this.style.dim(`(${update.kind ?? "other"})`)}\n`);
        this.finish(update.toolCallId, update.status, update.content, update.rawOutput);
        break;
      }
      case "tool_call_update": {
        if (update.title) {
          this.titles.set(update.toolCallId, update.title);
        }
        this.breakLine();
        this.finish(update.toolCallId, update.status, update.content, update.rawOutput);
        break;
      }
      case "plan":
        this.breakLine();
        this.write(`  ${this.style.bold("plan")}\n`);
        for (const entry of update.entries) {
          const mark = entry.status === "completed" ? this.style.green("✓") : entry.status === "in_progress" ? this.style.yellow("›") : this.style.dim("○");
          const content = entry.status === "completed" ? this.style.dim(entry.content) : entry.content;
          this.write(`    ${mark} ${content}\n`);
        }
        break;
      case "usage_update":
        this.usage = update;
        break;
      case "compaction_update": {
        // One line for each change of a compaction's status: the person sees /compact work.
        if (this.compactions.get(update.compactionId) === update.status) {
          break;
        }
        this.compactions.set(update.compactionId, update.status);
        this.breakLine();
        const told: Record<string, string> = {
          in_progress: this.style.dim("  ⋯ summarising the conversation…"),
          completed: `  ${this.style.green("✓")} ${this.style.dim("conversation summarised: the model reads the summary from the next prompt on")}`,
          cancelled: this.style.dim("  (summary cancelled)"),
        };
        this.write(`${told[update.status] ?? `  ${this.style.red("✗")} could not summarise the conversation${update.error ? `: ${update.error}` : ""}`}\n`);
        break;
      }
      default:
        break;
    }
  }

  /**
   * What a permission request is about, shown above its question: the diff of an edit (coloured,
   * bounded), or the agent's description of the call (a command and where it runs). A diff shown
   * here is not shown again when the call ends.
   */
  renderPermission(toolCall: acp.ToolCallUpdate): void {
    this.breakLine();
    for (const item of toolCall.content ?? []) {
      if (item.type === "diff") {
        this.showDiff(toolCall.toolCallId, item);
      } else if (item.type === "content") {
        this.write(indent(this.style.dim(firstLines(blockText(item.content), 12))));
      }
    }
  }

  /** The line shown after a turn: context used and cost, when the agent sent them ("" otherwise). */
  turnSummary(): string {
    const line = statusLine(this.usage);
    return line === "" ? "" : `${this.style.dim(`  ${line}`)}\n`;
  }

  /**
   * Where the chat's own terminals report: each command's output is shown as it arrives, then its
   * exit status. `beforeWrite` runs first each time (to clear a spinner).
   */
  terminalListener(beforeWrite: () => void): TerminalListener {
    const view = (terminalId: string) => {
      beforeWrite();
      this.breakLine();
      this.shownTerminals.add(terminalId);
      let output = this.liveOutput.get(terminalId);
      if (!output) {
        output = new CommandOutput(this.write, this.style);
        this.liveOutput.set(terminalId, output);
      }
      return output;
    };
    return {
      output: (terminalId, text) => view(terminalId).add(text),
      exit: (terminalId, status) => {
        view(terminalId).end(status);
        this.liveOutput.delete(terminalId);
      },
    };
  }

  private enter(section: Section, label: string, messageId?: string | null): void {
    const newMessage = messageId != null && this.messageId !== undefined && messageId !== this.messageId;
    if (this.section !== section || newMessage) {
      this.breakLine();
      this.write(label);
      this.section = section;
      this.blocksWritten = 0;
    }
    this.messageId = messageId ?? undefined;
  }

  private writeMarkdown(markdown: string): void {
    if (!this.markdown || markdown.trim() === "") {
      return;
    }
    const rendered = this.markdown.render(markdown);
    if (rendered === "") {
      return;
    }
    // The reply starts beside its label when its first line fits there, and under it otherwise.
    const firstLineFits = visibleWidth(`${this.agentName} › ${rendered.split("\n")[0] ?? ""}`) <= this.markdown.columns();
    this.write(`${this.blocksWritten > 0 ? "\n\n" : firstLineFits ? "" : "\n"}${rendered}`);
    this.blocksWritten++;
  }

  private showDiff(toolCallId: string, diff: acp.Diff): void {
    const key = `${diff.path}\u0000${diff.oldText ?? ""}\u0000${diff.newText}`;
    const shown = this.shownDiffs.get(toolCallId) ?? new Set<string>();
    if (!shown.has(key)) {
      shown.add(key);
      this.shownDiffs.set(toolCallId, shown);
      this.write(renderDiff(diff.path, diff.oldText ?? null, diff.newText, this.style));
    }
  }

  private finish(toolCallId: string, status: acp.ToolCallStatus | null | undefined, content: acp.ToolCallContent[] | null | undefined, rawOutput: unknown): void {
    const title = this.titles.get(toolCallId) ?? toolCallId;
    const done = status === "completed" || status === "failed";
    for (const item of content ?? []) {
      // A command run elsewhere (a replay, or a terminal that is not this chat's): its recorded output, once.
      if (item.type === "terminal" && done && !this.shownTerminals.has(item.terminalId)) {
        this.shownTerminals.add(item.terminalId);
        const text = outputText(rawOutput);
        if (text !== undefined) {
          const output = new CommandOutput(this.write, this.style);
          output.add(text);
          output.end(undefined);
        }
      }
    }
    if (done) {
      this.write(`  ${status === "completed" ? this.style.green("✓") : this.style.red("✗")} ${title}\n`);
    }
    for (const item of content ?? []) {
      if (item.type === "diff") {
        this.showDiff(toolCallId, item);
      } else if (item.type === "content" && status === "failed") {
        this.write(indent(this.style.dim(firstLines(blockText(item.content), 6))));
      }
    }
  }
}

/** What a tool's raw output says, when it is text or an object with a text `output` (or `stdout`). */
function outputText(rawOutput: unknown): string | undefined {
  if (typeof rawOutput === "string") {
    return rawOutput;
  }
  if (rawOutput && typeof rawOutput === "object") {
    const fields = rawOutput as Record<string, unknown>;
    const text = fields.output ?? fields.stdout;
    return typeof text === "string" ? text : undefined;
  }
  return undefined;
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
