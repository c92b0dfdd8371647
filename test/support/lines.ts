// Splits a stream of text chunks into lines, calling back with each complete non-blank line. Bytes
// are decoded across chunks, so a character whose bytes a chunk boundary splits stays whole.

import { StringDecoder } from "node:string_decoder";

export function lineSplitter(onLine: (line: string) => void): { push(chunk: Buffer | string): void; end(): void } {
  let pending = "";
  const decoder = new StringDecoder("utf8");
  return {
    push(chunk) {
      pending += typeof chunk === "string" ? chunk : decoder.write(chunk);
      for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n")) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (line.trim()) {
          onLine(line);
        }
      }
    },
    end() {
      pending += decoder.end();
      if (pending.trim()) {
        onLine(pending);
      }
      pending = "";
    },
  };
}
