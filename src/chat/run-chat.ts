// `weft chat`: a terminal client for any ACP agent. It starts the agent (or connects to it at a
// URL), sends what the person types, shows the agent's replies, tool calls and diffs as they stream,
// asks for permissions, and answers the agent's fs/* and terminal/* requests itself within the
// chosen directory. This file puts the parts together: what the person sees (chat-view.ts), the
// chat's state (chat-state.ts), the client's handlers (chat-client.ts), the opening
// (chat-opening.ts, chat-session.ts), reconnecting (reconnect.ts) and the loop (chat-loop.ts).

import * as acp from "@agentclientprotocol/sdk";

import type { AgentTarget } from "./agent-link.js";
import { chatClient } from "./chat-client.js";
import { ChatConnection } from "./chat-connection.js";
import { chatLoop } from "./chat-loop.js";
import { chatInitialize, listSessions, openChat, printSessionList } from "./chat-opening.js";
import { ChatSession } from "./chat-session.js";
import { ChatState, SessionSurface } from "./chat-state.js";
import { ChatView } from "./chat-view.js";
import { delay } from "./delay.js";
import { ChatInput } from "./input/chat-input.js";
import { commandCompleter } from "./input/local-commands.js";
import { historyPath, loadHistory, saveHistory } from "./input/prompt-history.js";
import { answerLocally } from "./local-access.js";
import { LocalFiles } from "./local-files.js";
import { LocalTerminals } from "./local-terminals.js";
import { markdownFor } from "./markdown.js";
import { reconnect, ReloadReplay } from "./reconnect.js";
import { errorMessage } from "../errors/error-message.js";

export interface ChatOptions {
  /** The agent: a command to start, or a remote server's URL. */
  agent: AgentTarget;
  /** The session's directory; fs and terminal requests stay inside it. */
  cwd: string;
  /** Print the agent's sessions and exit. */
  list?: boolean | undefined;
  /** With `list`, and in `/sessions`: show the sessions one-shot runs started too. */
  all?: boolean | undefined;
  /** What names the agent in the one-shot runs' sessions file, and the file (see PromptRunOptions). */
  agentKey?: string | undefined;
  sessionsFile?: string | undefined;
  /** Reopen this session instead of starting one. */
  resume?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  input: NodeJS.ReadableStream & { isTTY?: boolean | undefined };
  output: NodeJS.WritableStream & { isTTY?: boolean | undefined };
  version: string;
}

/** Runs the chat until the person leaves; resolves with the exit code. */
export async function runChat(options: ChatOptions): Promise<number> {
  const view = new ChatView(options.output);
  const { write, style, renderer, spinner } = view;
  const markdown = markdownFor(options.output); // output hook: loads while the agent starts
  const files = new LocalFiles(options.cwd);
  const terminals = new LocalTerminals(options.cwd, renderer.terminalListener(() => spinner.stop())); // output hook: commands show live
  // Set once the app below is connected; its handlers run only after that.
  let connection!: ChatConnection;
  const surface = new SessionSurface();

  // Reading starts at once, so what is typed before the session is ready is queued, not lost.
  const history = options.list ? undefined : historyPath(options.cwd, options.env ?? process.env);
  const turn = new ChatState(write, style, () => view.settle());
  const input = new ChatInput({
    input: options.input,
    output: options.output,
    terminal: view.tty,
    area: view.area,
    dim: style.dim,
    history: history ? loadHistory(history) : [],
    onHistory: history ? (entries) => saveHistory(history, entries) : undefined,
    completer: commandCompleter(() => surface.commands),
  });
  turn.input = input;
  const replay = new ReloadReplay();
  // The agent's updates and questions; its fs/* and terminal/* requests go to answerLocally().
  const app = chatClient({ view, surface, turn, input, replay, reloading: () => connection.reloading });
  try {
    connection = await ChatConnection.open(options.agent, answerLocally(app, files, terminals), { cwd: options.cwd, env: options.env });
  } catch (error) {
    input.close();
    terminals.dispose();
    write(`weft chat: ${errorMessage(error)}\n`);
    return 2;
  }

  const leave = async (code: number) => {
    spinner.stop();
    input.close();
    terminals.dispose();
    await connection.close(3_000);
    return code;
  };

  const initialize = chatInitialize(options.version);
  try {
    const init = await Promise.race([connection.agent.request(acp.methods.agent.initialize, initialize), connection.failure()]);
    const name = init.agentInfo?.title ?? init.agentInfo?.name ?? connection.label;
    renderer.agentName = name; // output hook: the agent's own name on its replies
    renderer.markdown = await markdown; // output hook: markdown on a colour terminal
    const sessions = () => listSessions(connection.agent, init, options, style);
    if (options.list) {
      return await leave(printSessionList(await sessions(), name, options.cwd, write));
    }
    const session = new ChatSession(connection, options.cwd, surface, view);
    const refused = await openChat({ view, session, surface, init, name, agent: options.agent, cwd: options.cwd, resume: options.resume });
    if (refused !== undefined) {
      return await leave(refused);
    }
    return await chatLoop({
      input,
      view,
      turn,
      connection,
      session,
      commands: {
        write,
        style,
        columns: view.columns,
        agentCommands: () => surface.commands,
        surface: () => ({ modes: surface.modes, configOptions: surface.configOptions }),
        listSessions: sessions,
        ensureSession: () => session.ensure(),
        setMode: (modeId) => session.setMode(modeId),
        setConfigOption: (configId, value) => session.setConfigOption(configId, value),
      },
      reconnect: () => reconnect({ connection, initialize, cwd: options.cwd, session, view, replay }),
      leave,
      resumed: Boolean(options.resume),
    });
  } catch (error) {
    spinner.stop();
    let message = errorMessage(error);
    if (connection.gone || (await Promise.race([connection.ended.then(() => true), delay(500).then(() => false)]))) {
      // The agent went away: say how (with the end of what it wrote to stderr, or why the
      // connection failed).
      message = await connection.ended;
    }
    write(style.red(`weft chat: ${message}\n`));
    return await leave(1);
  }
}
