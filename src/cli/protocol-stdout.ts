// stdout kept for the protocol while `weft acp --graph` serves a module the person wrote: ACP is
// written through a stream of its own, and anything else written to process.stdout (the module's
// console.log, console.dir, console.table, process.stdout.write) goes to stderr instead.

import { Writable } from "node:stream";

/**
 * Takes process.stdout for the protocol: answers the stream ACP is to be written to, and from now
 * on sends every other write to process.stdout to stderr. Call it before the module is imported,
 * so what it writes as it loads is caught too. A failure of stdout (the editor went away) fails
 * the returned stream, as it would fail stdout itself.
 */
export function protocolStdout(): Writable {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout) as (chunk: Uint8Array | string, callback: (error?: Error | null) => void) => boolean;
  const output = new Writable({
    write(chunk: Uint8Array | string, _encoding, callback) {
      write(chunk, (error) => callback(error ?? null));
    },
  });
  stdout.on("error", (error) => output.destroy(error));
  stdout.write = ((...args: Parameters<typeof stdout.write>) => process.stderr.write(...(args as [string]))) as typeof stdout.write;
  return output;
}
