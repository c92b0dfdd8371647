// The bottom of the terminal while a turn runs: what the person is typing, the lines they queued
// and a question waiting for a key stay below the agent's output, which is written above them
// (the area is wiped, the output written, the area drawn again).

import { visibleWidth } from "../markdown.js";

/** Where the cursor sits in the area: a line of it, and how many columns into that line. */
export interface AreaCursor {
  line: number;
  column: number;
}

export class PendingArea {
  /** The area's lines as drawn; none when nothing is pending. */
  private lines: string[] = [];
  private cursor: AreaCursor | undefined;
  /** The width of the output's last line so far (columns since its last line break). */
  private outputColumn = 0;
  /** How the area was drawn, to wipe it: the rows above the cursor, and whether it began on a line of its own. */
  private drawn: { rowsAbove: number; brokeLine: boolean } | undefined;

  constructor(private readonly target: NodeJS.WritableStream & { columns?: number | undefined }) {}

  /** True while something is drawn. */
  get shown(): boolean {
    return this.drawn !== undefined;
  }

  /** Writes output above the area. */
  write(text: string): void {
    if (text === "") {
      return;
    }
    const drawn = this.drawn !== undefined;
    this.wipe();
    this.target.write(text);
    this.track(text);
    if (drawn) {
      this.draw();
    }
  }

  /** Replaces what the area shows (nothing: `[]`); the cursor goes to `cursor`, or the end of the last line. */
  show(lines: readonly string[], cursor?: AreaCursor): void {
    this.wipe();
    this.lines = [...lines];
    this.cursor = cursor;
    if (this.lines.length > 0) {
      this.draw();
    }
  }

  /**
   * Says the cursor is at the start of a line after something else wrote there (readline ending a
   * line with Enter), with the area not drawn.
   */
  atLineStart(): void {
    this.drawn = undefined;
    this.outputColumn = 0;
  }

  private get columns(): number {
    const columns = this.target.columns;
    return columns && columns > 0 ? columns : Number.POSITIVE_INFINITY;
  }

  private draw(): void {
    const columns = this.columns;
    // The area starts on a line of its own; a line the output left open is gone back to when wiping.
    const brokeLine = this.outputColumn > 0;
    let text = brokeLine ? "\n" : "";
    text += this.lines.join("\n");
    const rows = this.lines.map((line) => Math.max(1, Math.ceil(visibleWidth(line) / columns)));
    const last = this.lines.length - 1;
    const lastWidth = visibleWidth(this.lines[last] ?? "");
    // Where writing left the cursor: a row of the last line (the last column, when it filled it).
    const endRow = rows.slice(0, last).reduce((sum, count) => sum + count, 0) + (lastWidth > 0 && lastWidth % columns === 0 ? lastWidth / columns - 1 : Math.floor(lastWidth / columns));
    const cursor = this.cursor ?? { line: last, column: lastWidth };
    const target = Math.min(cursor.column, visibleWidth(this.lines[cursor.line] ?? ""));
    const targetRow = rows.slice(0, cursor.line).reduce((sum, count) => sum + count, 0) + (Number.isFinite(columns) ? Math.floor(target / columns) : 0);
    const targetColumn = Number.isFinite(columns) ? target % columns : target;
    if (targetRow > endRow) {
      // The cursor goes past a line that filled its last row: onto a row of its own.
      text += "\r\n";
    } else if (endRow !== targetRow || targetColumn !== (Number.isFinite(columns) ? lastWidth % columns : lastWidth) || (lastWidth > 0 && lastWidth % columns === 0)) {
      text += `\r${up(endRow - targetRow)}${targetColumn > 0 ? `\u001b[${targetColumn}C` : ""}`;
    }
    this.target.write(text);
    this.drawn = { rowsAbove: targetRow, brokeLine };
  }

  private wipe(): void {
    if (!this.drawn) {
      return;
    }
    const { rowsAbove, brokeLine } = this.drawn;
    this.drawn = undefined;
    let text = `\r${up(rowsAbove)}\u001b[J`;
    const columns = this.columns;
    if (brokeLine) {
      if (Number.isFinite(columns) && this.outputColumn % columns === 0) {
        // The output's line was full: the next character would have started this row anyway.
        this.outputColumn = 0;
      } else {
        const column = Number.isFinite(columns) ? this.outputColumn % columns : this.outputColumn;
        text += `${up(1)}\u001b[${column + 1}G`;
      }
    }
    this.target.write(text);
  }

  private track(text: string): void {
    const lineBreak = text.lastIndexOf("\n");
    const tail = lineBreak >= 0 ? text.slice(lineBreak + 1) : text;
    const carriage = tail.lastIndexOf("\r");
    if (carriage >= 0) {
      this.outputColumn = visibleWidth(tail.slice(carriage + 1));
    } else {
      this.outputColumn = (lineBreak >= 0 ? 0 : this.outputColumn) + visibleWidth(tail);
    }
  }
}

function up(rows: number): string {
  return rows > 0 ? `\u001b[${rows}A` : "";
}
