import { Writable } from "node:stream";

import { describe, expect, it } from "vitest";

import { playOutput } from "../../../test/support/screen.js";
import { PendingArea } from "./pending-area.js";

/** A terminal `columns` wide that keeps what is written to it. */
function terminal(columns: number) {
  let output = "";
  const target = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        output += chunk.toString();
        callback();
      },
    }),
    { columns },
  );
  return { target, screen: () => playOutput(output, columns) };
}

describe("PendingArea", () => {
  it("keeps its lines below the output, and output that ends mid-line goes on where it left off", () => {
    const { target, screen } = terminal(40);
    const area = new PendingArea(target);
    area.write("weft › The first ");
    area.show(["next › sec"]);
    area.write("answer ");
    area.show(["next › second"]);
    area.write("ends here.\n");
    expect(screen().lines).toEqual(["weft › The first answer ends here.", "next › second"]);
    area.show([]);
    area.write("you › second\n");
    expect(screen().lines).toEqual(["weft › The first answer ends here.", "you › second", ""]);
  });

  it("puts the cursor where it is told, across wrapped lines, and wipes every row it drew", () => {
    const { target, screen } = terminal(10);
    const area = new PendingArea(target);
    area.write("out\n");
    area.show(["? question here", "next › abcdefgh"], { line: 1, column: 9 });
    // "next › abcdefgh" is 15 wide: the cursor, after "next › ab", is on its first row.
    expect(screen().cursor).toEqual({ row: 3, column: 9 });
    area.write("more output\n");
    expect(screen().lines).toEqual(["out", "more outpu", "t", "? question", " here", "next › abc", "defgh"]);
    area.show([]);
    expect(screen().lines).toEqual(["out", "more outpu", "t", ""]);
  });
});
