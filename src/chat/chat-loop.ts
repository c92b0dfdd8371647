// Interactive `weft chat`'s loop: it reads the person's prompts until they leave, runs chat's own
// commands, sends the rest as turns in the session, and opens a dropped remote connection again.
// Ctrl-C means what the chat's state says it means at the moment.

import * as acp from "@agentclientprotocol/sdk";

import type { ChatConnection } from "./chat-connection.js";
import type { ChatSession } from "./chat-session.js";
import type { ChatState } from "./chat-state.js";
import type { ChatView } from "./chat-view.js";
import type { ChatInput } from "./input/chat-input.js";
import { type LocalCommandContext, runLocalCommand } from "./input/local-commands.js";
import { errorMessage } from "../errors/error-message.js";

export interface ChatLoopParts {
  input: ChatInput;
  view: Pick<ChatView, "write" | "style" | "renderer" | "spinner">;
  turn: ChatState;
  connection: ChatConnection;
  session: ChatSession;
  /** What chat's own commands see and do. */
  commands: LocalCommandContext;
  /** Opens a dropped connection again (reconnect.ts); false when it could not. */
  reconnect(): Promise<boolean>;
  /** Ends the chat with an exit code (the input, the terminals, the connection); resolves with it. */
  leave(code: number): Promise<number>;
  /** True when the chat reopened a session (`--resume`): leaving then says nothing of coming back. */
  resumed: boolean;
}

/** Runs the chat until the person leaves or the agent is gone; resolves with the exit code. */
export async function chatLoop(parts: ChatLoopParts): Promise<number> {
  const { input, view, turn, connection, session, leave } = parts;
  const { write, style, renderer, spinner } = view;
  listenForInterrupts(parts);
  for (;;) {
    const line = await input.next(style.bold("you › "));
    if (line === undefined) {
      break;
    }
    if (line.trim() === "") {
      continue;
    }
    turn.startTurn();
    try {
      if (line.startsWith("/")) {
        const handled = await runLocalCommand(line, parts.commands);
        if (handled === "quit") {
          break;
        }
        if (handled === "handled") {
          continue;
        }
      }
      if (connection.gone && connection.canReconnect && !(await parts.reconnect())) {
        return await leave(1);
      }
      // The session first: a new one is announced (with its model) before the spinner starts.
      const id = await Promise.race([session.ensure(), connection.failure()]);
      spinner.start("thinking…");
      const response = await Promise.race([connection.agent.request(acp.methods.agent.session.prompt, { sessionId: id, prompt: [{ type: "text", text: line }] }), connection.failure()]);
      spinner.stop();
      renderer.breakLine();
      if (response.stopReason !== "end_turn") {
        write(style.dim(`(${response.stopReason.replaceAll("_", " ")})\n`));
      }
      write(renderer.turnSummary()); // output hook: usage and cost after the turn
    } catch (error) {
      spinner.stop();
      renderer.breakLine();
      if (connection.gone && connection.canReconnect) {
        // The turn's reply is cut off here; the server may carry the turn on regardless.
        if (!(await parts.reconnect())) {
          return await leave(1);
        }
        continue;
      }
      write(style.red(`${errorMessage(error)}\n`));
      if (connection.gone) {
        return await leave(1);
      }
    } finally {
      turn.endTurn();
    }
  }
  if (session.id !== undefined && !parts.resumed) {
    // The session was made during this chat: say how to come back to it.
    write(style.dim(`To carry on this session: weft chat --resume ${session.id}\n`));
  }
  return await leave(0);
}

/** Ctrl-C: the chat's state says whether it cancels the turn (told to the agent), leaves, or hints. */
function listenForInterrupts({ input, view, turn, connection, session }: ChatLoopParts): void {
  input.readline.on("SIGINT", () => {
    const action = turn.onInterrupt();
    if (action === "cancel" && session.id !== undefined) {
      view.spinner.stop();
      void connection.agent.notify(acp.methods.agent.session.cancel, { sessionId: session.id }).catch(() => undefined);
    } else if (action === "exit") {
      input.readline.emit("close");
    }
  });
}
