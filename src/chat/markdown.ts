// Markdown for the terminal in `weft chat`: the agent's replies rendered with marked and
// marked-terminal (headings, emphasis, highlighted code, lists, tables, links), wrapped to the
// terminal's width, and a splitter that finds which blocks of a streamed reply are complete.

import type { ChalkInstance } from "chalk";

/** Renders complete markdown blocks as terminal text for a terminal so many columns wide. */
export interface MarkdownRender {
  /** The blocks as terminal text, with no trailing newline. */
  render(markdown: string): string;
  /** The terminal's width now. */
  columns(): number;
}

/** How many columns text takes on screen, colour codes aside. */
export function visibleWidth(text: string): number {
  // eslint-disable-next-line no-control-regex -- colour codes take no room
  return [...text.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b\]8;[^\u0007]*\u0007/g, "")].length;
}

/**
 * The markdown renderer for an output, or undefined when the output gets plain text (not a
 * terminal, or NO_COLOR set). The packages are imported here, on first use, so that they load only
 * in `weft chat`, never on `weft acp`'s start path. Lines wrap at the terminal's width as it is
 * when each block is rendered. The promise never rejects, so it can be started early and awaited later.
 */
export async function markdownFor(output: { isTTY?: boolean | undefined; columns?: number | undefined }, env: NodeJS.ProcessEnv = process.env): Promise<MarkdownRender | undefined> {
  if (!output.isTTY || env.NO_COLOR) {
    return undefined;
  }
  let modules;
  try {
    modules = await Promise.all([import("marked"), import("marked-terminal"), import("chalk")]);
  } catch {
    // Without the packages (a broken install) replies are plain; the promise never rejects.
    return undefined;
  }
  const [{ Marked }, { markedTerminal }, { default: chalk }] = modules;
  // We have decided this output gets colour. chalk decides for itself from the environment (it
  // turns colour off where CI is set, say), and marked-terminal styles and highlights with chalk's
  // shared instance, so tell it.
  if (chalk.level === 0) {
    chalk.level = 1;
  }
  const highlight = { theme: codeTheme(chalk) };
  let width = 0;
  let marked = new Marked();
  // A pseudo-terminal that was never sized reports 0 columns.
  const columns = () => output.columns || 80;
  return {
    columns,
    render: (markdown) => {
      const wanted = Math.max(20, columns() - 2);
      if (wanted !== width) {
        width = wanted;
        marked = new Marked(markedTerminal({ width, reflowText: true, showSectionPrefix: false, emoji: false, tab: 2 }, highlight));
      }
      return (marked.parse(markdown, { async: false }) as string).replace(/\s+$/, "");
    },
  };
}

/**
 * Colours for highlighted code. cli-highlight, which marked-terminal highlights with, brings its
 * own chalk that decides on colour apart from ours, so the styles come from ours.
 */
function codeTheme(chalk: ChalkInstance): Record<string, (text: string) => string> {
  return {
    keyword: chalk.blue,
    built_in: chalk.cyan,
    type: chalk.cyan.dim,
    literal: chalk.blue,
    number: chalk.green,
    regexp: chalk.red,
    string: chalk.red,
    class: chalk.blue,
    function: chalk.yellow,
    comment: chalk.green,
    doctag: chalk.green,
    meta: chalk.gray,
    tag: chalk.gray,
    name: chalk.blue,
    attr: chalk.cyan,
    emphasis: chalk.italic,
    strong: chalk.bold,
    link: chalk.underline,
    addition: chalk.green,
    deletion: chalk.red,
    default: (text) => text,
  };
}

/**
 * Collects a reply's chunks and hands out each block once it is complete: a paragraph, list or
 * table once a blank line follows it, a code fence once it is closed. What is left when the reply
 * ends comes from finish(). Every character goes out exactly once.
 */
export class MarkdownBlocks {
  private pending = "";

  /** Adds a chunk; returns the markdown of the blocks it completed ("" when none). */
  push(chunk: string): string {
    this.pending += chunk;
    const end = completeEnd(this.pending);
    const complete = this.pending.slice(0, end);
    this.pending = this.pending.slice(end);
    return complete;
  }

  /** The rest of the reply, complete or not; the collector starts over. */
  finish(): string {
    const rest = this.pending;
    this.pending = "";
    return rest;
  }
}

/** Where the complete blocks of `text` end: after the last blank line or closing fence outside a fence. */
function completeEnd(text: string): number {
  let end = 0;
  let fence: string | undefined;
  let offset = 0;
  // Only whole lines count; the last line may still be growing.
  const lines = text.split("\n");
  lines.pop();
  for (const line of lines) {
    const lineEnd = offset + line.length + 1;
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        fence = undefined;
        end = lineEnd;
      }
    } else if (marker) {
      fence = marker;
    } else if (line.trim() === "") {
      // A blank line ends a block (a list whose items a blank line splits just goes on numbering).
      end = lineEnd;
    }
    offset = lineEnd;
  }
  return end;
}
