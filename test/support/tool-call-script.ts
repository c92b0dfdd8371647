// A fake model's script for tests of tools: the given tool calls, one per request, then "done".

import type { FakeReply, FakeScript } from "../../src/testing/fake-model-server.js";

/** A script that answers request `n` with call `n` (its id `c<n>`) and every request after the calls with the text "done". */
export function toolCallsOneByOne(calls: ReadonlyArray<{ name: string; arguments: unknown }>): FakeScript {
  return (_request, index) => {
    const call = calls[index];
    const reply: FakeReply = call ? { toolCalls: [{ name: call.name, arguments: call.arguments, id: `c${index}` }] } : { text: "done" };
    return reply;
  };
}
