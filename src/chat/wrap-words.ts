// Chat's own text (its header, /help, a form's notes) wrapped to the terminal's width at word
// boundaries, so that no word is cut at the edge of the screen.

import { visibleWidth } from "./markdown.js";

/**
 * `text` with each of its lines broken before the word that would pass `columns`; lines after the
 * first of a broken line start with `indent`. A word longer than a line is left whole. Without a
 * width (not a terminal), the text is as given.
 */
export function wrapWords(text: string, columns: number | undefined, indent = ""): string {
  if (!columns || columns <= 0) {
    return text;
  }
  return text
    .split("\n")
    .map((line) => wrapLine(line, columns, indent))
    .join("\n");
}

function wrapLine(line: string, columns: number, indent: string): string {
  if (visibleWidth(line) <= columns) {
    return line;
  }
  const lead = /^\s*/.exec(line)?.[0] ?? "";
  // Each word with the spaces after it, so the spacing inside a row stays as written.
  const words = line.slice(lead.length).match(/\S+\s*/g) ?? [];
  const rows: string[] = [];
  let row = lead;
  let empty = true;
  for (const word of words) {
    if (!empty && visibleWidth(`${row}${word}`.trimEnd()) > columns) {
      rows.push(row.trimEnd());
      row = indent;
    }
    row += word;
    empty = false;
  }
  rows.push(row.trimEnd());
  return rows.join("\n");
}
