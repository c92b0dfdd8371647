// What an agent may ask a terminal client for besides the person: the files and terminals of the
// chat's directory. Both of chat's runners (the conversation and the one-shot prompt) answer them
// the same way.

import * as acp from "@agentclientprotocol/sdk";

import type { LocalFiles } from "./local-files.js";
import type { LocalTerminals } from "./local-terminals.js";

/** `app` answering the agent's fs/* requests with `files` and its terminal/* requests with `terminals`. */
export function answerLocally(app: acp.ClientApp, files: LocalFiles, terminals: LocalTerminals): acp.ClientApp {
  return app
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => files.read(params))
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => files.write(params))
    .onRequest(acp.methods.client.terminal.create, ({ params }) => terminals.create(params))
    .onRequest(acp.methods.client.terminal.output, ({ params }) => terminals.output(params))
    .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => terminals.waitForExit(params))
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => terminals.kill(params))
    .onRequest(acp.methods.client.terminal.release, ({ params }) => terminals.release(params));
}
