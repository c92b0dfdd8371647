// A spinner on the current terminal line while the chat waits for the agent; it clears itself as
// soon as there is something to show.

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly enabled: boolean,
  ) {}

  start(label: string): void {
    if (!this.enabled || this.timer) {
      return;
    }
    const draw = () => this.write(`\r${FRAMES[this.frame++ % FRAMES.length]} ${label}`);
    draw();
    this.timer = setInterval(draw, 80);
  }

  stop(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.write("\r\u001b[K");
    }
  }
}
