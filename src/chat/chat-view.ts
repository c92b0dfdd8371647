// What the person sees of interactive `weft chat`: the output it writes to (below the output, on a
// terminal, the pending area of what is typed meanwhile), the styles, the renderer of the agent's
// updates and the spinner. Every other part of the chat writes through it.

import { PendingArea } from "./input/pending-area.js";
import { type Style, terminalStyle, UpdateRenderer } from "./render-updates.js";
import { Spinner } from "./spinner.js";

export class ChatView {
  /** A terminal: colour (unless NO_COLOR), the pending area, the spinner, single-key answers. */
  readonly tty: boolean;
  readonly style: Style;
  /** On a terminal, what is typed while a turn runs stays below the output (input/pending-area.ts). */
  readonly area: PendingArea | undefined;
  readonly renderer: UpdateRenderer;
  readonly spinner: Spinner;

  constructor(private readonly output: NodeJS.WritableStream & { isTTY?: boolean | undefined }) {
    this.tty = Boolean(output.isTTY);
    this.style = terminalStyle(this.tty && !process.env.NO_COLOR);
    this.area = this.tty ? new PendingArea(output) : undefined;
    this.renderer = new UpdateRenderer(this.write, this.style);
    this.spinner = new Spinner(this.write, this.tty);
  }

  /** Writes text to the output (above the pending area, when there is one). */
  readonly write = (text: string): void => {
    if (this.area) {
      this.area.write(text);
    } else {
      this.output.write(text);
    }
  };

  /** The terminal's width now, for chat's own text to wrap at. */
  readonly columns = (): number | undefined => (this.tty ? (this.output as { columns?: number | undefined }).columns || undefined : undefined);

  /** Stops the spinner and ends the output's open line (a reply being written). */
  settle(): void {
    this.spinner.stop();
    this.renderer.breakLine();
  }
}
