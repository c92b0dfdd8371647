// Splits a stream of text chunks into lines, calling back with each complete non-blank line.

export function lineSplitter(onLine: (line: string) => void): { push(chunk: Buffer | string): void; end(): void } {
  let pending = "";
  return {
    push(chunk) {
      pending += chunk.toString();
      for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n")) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (line.trim()) {
          onLine(line);
        }
      }
    },
    end() {
      if (pending.trim()) {
        onLine(pending);
      }
      pending = "";
    },
  };
}
