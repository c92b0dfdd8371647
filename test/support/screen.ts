// What a terminal of a given width shows after a program's output: the few control sequences a
// line editor uses (carriage return, line feed, backspace, cursor moves, erase in line and
// display) are carried out, colours and modes are dropped. Tests of `weft chat` read the screen
// with it where the program redraws (a line typed during a turn, a question), since the raw
// stream then holds every draw, not what the person sees.

export interface ScreenView {
  /** The screen's lines, top first (the whole scrollback), without trailing spaces. */
  lines: string[];
  /** The row and column of the cursor. */
  cursor: { row: number; column: number };
}

/** Plays `output` on a terminal `columns` wide (0: lines never wrap). */
export function playOutput(output: string, columns: number): ScreenView {
  const rows: string[][] = [[]];
  let row = 0;
  let column = 0;
  /** Set when a character was written in the last column: the next one wraps first. */
  let pendingWrap = false;
  const line = () => (rows[row] ??= []);
  const newLine = () => {
    row++;
    while (rows.length <= row) {
      rows.push([]);
    }
  };
  for (let index = 0; index < output.length; index++) {
    const char = output[index] as string;
    if (char === "\u001b") {
      // eslint-disable-next-line no-control-regex -- reading terminal escape sequences
      const csi = /^\u001b\[([0-9;?]*)([A-Za-z@`])/.exec(output.slice(index));
      if (csi) {
        index += csi[0].length - 1;
        const parameters = csi[1] ?? "";
        const count = parameters.startsWith("?") ? 0 : Number(parameters.split(";")[0] || "0");
        const moved = Math.max(count, 1);
        pendingWrap = false;
        switch (csi[2]) {
          case "A":
            row = Math.max(0, row - moved);
            break;
          case "B":
            row += moved;
            while (rows.length <= row) {
              rows.push([]);
            }
            break;
          case "C":
            column += moved;
            break;
          case "D":
            column = Math.max(0, column - moved);
            break;
          case "G":
            column = moved - 1;
            break;
          case "K":
            if (count === 0) {
              line().length = Math.min(line().length, column);
            } else if (count === 2) {
              rows[row] = [];
            }
            break;
          case "J":
            if (count === 0) {
              line().length = Math.min(line().length, column);
              rows.length = row + 1;
            }
            break;
          default:
            break; // colours, modes
        }
        continue;
      }
      // An OSC (a hyperlink): skipped up to its terminator.
      // eslint-disable-next-line no-control-regex -- reading terminal escape sequences
      const osc = /^\u001b\][^\u0007]*\u0007/.exec(output.slice(index));
      index += osc ? osc[0].length - 1 : 0;
      continue;
    }
    if (char === "\r") {
      column = 0;
      pendingWrap = false;
    } else if (char === "\n") {
      // A terminal in raw mode still turns "\n" into "\r\n" (ONLCR).
      newLine();
      column = 0;
      pendingWrap = false;
    } else if (char === "\b") {
      column = Math.max(0, column - 1);
      pendingWrap = false;
    } else if (char >= " " || char === "\t") {
      if (pendingWrap) {
        newLine();
        column = 0;
        pendingWrap = false;
      }
      const cells = line();
      while (cells.length < column) {
        cells.push(" ");
      }
      cells[column] = char === "\t" ? " " : char;
      if (columns > 0 && column === columns - 1) {
        pendingWrap = true;
      } else {
        column++;
      }
    }
  }
  return { lines: rows.map((cells) => cells.join("").replace(/\s+$/, "")), cursor: { row, column } };
}
