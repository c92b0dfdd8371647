// What interactive `weft chat` answers the agent with: its updates are shown as they stream (or kept,
// while a reconnect replays the session), and its permission requests and forms are asked of the
// person. Its fs/* and terminal/* requests are answered by local-access.ts.

import * as acp from "@agentclientprotocol/sdk";

import type { ChatState, SessionSurface } from "./chat-state.js";
import type { ChatView } from "./chat-view.js";
import { askForm } from "./input/ask-form.js";
import { askPermission } from "./input/ask-permission.js";
import type { ChatInput } from "./input/chat-input.js";
import type { ReloadReplay } from "./reconnect.js";

export interface ChatClientParts {
  view: Pick<ChatView, "write" | "style" | "renderer" | "spinner" | "tty">;
  surface: SessionSurface;
  turn: ChatState;
  input: Pick<ChatInput, "ask" | "askKey">;
  replay: ReloadReplay;
  /** True while a reconnect's session/load replays the conversation (see ChatConnection.reloading). */
  reloading(): boolean;
}

/** The client's handlers for the agent's updates, permission requests and forms. */
export function chatClient({ view, surface, turn, input, replay, reloading }: ChatClientParts): acp.ClientApp {
  const { write, style, renderer, spinner } = view;
  return acp
    .client({ name: "weft-chat" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      surface.remember(params.update);
      if (reloading()) {
        replay.keep(params.update); // a reconnect's replay: mostly what the person has seen
        return;
      }
      replay.shown(params.update);
      spinner.stop();
      renderer.render(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      spinner.stop();
      renderer.renderPermission(params.toolCall); // output hook: the diff above the question
      const outcome = await askPermission(params, { input, write, style, singleKey: view.tty, turn });
      if (turn.running) {
        spinner.start("working…");
      }
      return { outcome };
    })
    .onRequest(acp.methods.client.elicitation.create, async ({ params }) => {
      spinner.stop();
      renderer.breakLine();
      if (params.mode !== "form" || !("requestedSchema" in params)) {
        return { action: "decline" };
      }
      const answer = await askForm(params.requestedSchema as acp.ElicitationSchema, params.message, (question) => input.ask(question), write, style);
      if (turn.running) {
        spinner.start("working…");
      }
      return answer;
    });
}
