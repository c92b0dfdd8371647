// A child's stdin as the writable side of an SDK stream, handing each line the client writes to
// `onLine` on its way: what a check of the wire needs to know of the client's requests.

import type { Writable } from "node:stream";

export function tappedStdin(stdin: Writable | null | undefined, onLine: (line: string) => void): WritableStream<Uint8Array> {
  const decoder = new TextDecoder();
  return new WritableStream({
    write: (chunk) => {
      for (const line of decoder.decode(chunk).split("\n")) {
        if (line.trim()) {
          onLine(line);
        }
      }
      return new Promise<void>((resolve, reject) => {
        if (!stdin || stdin.destroyed || !stdin.writable) {
          reject(new Error("The agent's stdin is closed."));
          return;
        }
        stdin.write(chunk, (error) => (error ? reject(error) : resolve()));
      });
    },
  });
}
