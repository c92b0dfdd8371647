// A test editor over any ACP stream (stdio, HTTP, WebSocket): the SDK's client app, keeping the
// text of every agent message chunk it is sent.

import * as acp from "@agentclientprotocol/sdk";

/** Connects the SDK's client app, named `name`, to `stream`; `replies` fills with the agent's text chunks as they come. */
export function textClient(name: string, stream: acp.Stream): { connection: acp.ClientConnection; replies: string[] } {
  const replies: string[] = [];
  const connection = acp
    .client({ name })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      if (params.update.sessionUpdate === "agent_message_chunk" && params.update.content.type === "text") {
        replies.push(params.update.content.text);
      }
    })
    .connect(stream);
  return { connection, replies };
}
