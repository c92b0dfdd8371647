// `weft chat`: a terminal client for any ACP agent. It starts the agent (or connects to it at a
// URL), sends what the person
// types, shows the agent's replies, tool calls and diffs as they stream, asks for permissions, and
// answers the agent's fs/* and terminal/* requests itself within the chosen directory.

import * as acp from "@agentclientprotocol/sdk";

import type { AgentTarget } from "./agent-link.js";
import { ChatConnection } from "./chat-connection.js";
import { askForm } from "./input/ask-form.js";
import { ChatInput } from "./input/chat-input.js";
import { PendingArea } from "./input/pending-area.js";
import { localCommandNames, runLocalCommand } from "./input/local-commands.js";
import { historyPath, loadHistory, saveHistory } from "./input/prompt-history.js";
import { ChatSessions } from "./chat-sessions.js";
import { answerLocally } from "./local-access.js";
import { LocalFiles } from "./local-files.js";
import { LocalTerminals } from "./local-terminals.js";
import { markdownFor } from "./markdown.js";
import { type Style, terminalStyle, UpdateRenderer } from "./render-updates.js";
import { sessionListLines } from "./session-list.js";
import { SeenUpdates } from "./seen-updates.js";
import { sessionModel } from "./session-model.js";
import { wrapWords } from "./wrap-words.js";
import { Spinner } from "./spinner.js";
import { isUnknownSession, unknownSessionMessage } from "./unknown-session.js";
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
  const tty = Boolean(options.output.isTTY);
  const style = terminalStyle(tty && !process.env.NO_COLOR);
  // On a terminal, what is typed while a turn runs stays below the output (input/pending-area.ts).
  const area = tty ? new PendingArea(options.output) : undefined;
  const write = (text: string) => {
    if (area) {
      area.write(text);
    } else {
      options.output.write(text);
    }
  };
  const renderer = new UpdateRenderer(write, style);
  /** The terminal's width now, for chat's own text to wrap at. */
  const columns = () => (tty ? (options.output as { columns?: number | undefined }).columns || undefined : undefined);
  const markdown = markdownFor(options.output); // output hook: loads while the agent starts
  const spinner = new Spinner(write, tty);
  const files = new LocalFiles(options.cwd);
  const terminals = new LocalTerminals(options.cwd, renderer.terminalListener(() => spinner.stop())); // output hook: commands show live
  // Set once the app below is connected; its handlers run only after that.
  let connection!: ChatConnection;

  // The session's surface as the agent reports it: its commands, modes and config options.
  let agentCommands: acp.AvailableCommand[] = [];
  let modes: acp.SessionModeState | undefined;
  let configOptions: acp.SessionConfigOption[] = [];
  const remember = (update: acp.SessionUpdate) => {
    if (update.sessionUpdate === "available_commands_update") {
      agentCommands = update.availableCommands;
    } else if (update.sessionUpdate === "current_mode_update" && modes) {
      modes = { ...modes, currentModeId: update.currentModeId };
    } else if (update.sessionUpdate === "config_option_update") {
      configOptions = update.configOptions;
    }
  };

  // Reading starts at once, so what is typed before the session is ready is queued, not lost.
  const history = options.list ? undefined : historyPath(options.cwd, options.env ?? process.env);
  const chat = new ChatState(write, style, () => {
    spinner.stop();
    renderer.breakLine();
  });
  const input = new ChatInput({
    input: options.input,
    output: options.output,
    terminal: tty,
    area,
    dim: style.dim,
    history: history ? loadHistory(history) : [],
    onHistory: history ? (entries) => saveHistory(history, entries) : undefined,
    completer: (line: string): [string[], string] => {
      if (!line.startsWith("/") || line.includes(" ")) {
        return [[], line];
      }
      const names = [...localCommandNames, ...agentCommands.map((entry) => entry.name)].map((name) => `/${name}`);
      return [[...new Set(names)].filter((name) => name.startsWith(line)).map((name) => `${name} `), line];
    },
  });
  chat.input = input;
  // What was shown as it came, and a reconnect's replay, from which the rest of a cut turn is shown.
  const seen = new SeenUpdates();
  let replayed: acp.SessionUpdate[] = [];
  // The agent's updates and questions; its fs/* and terminal/* requests go to answerLocally().
  const app = acp
    .client({ name: "weft-chat" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      remember(params.update);
      if (connection.reloading) {
        replayed.push(params.update); // a reconnect's replay: mostly what the person has seen
        return;
      }
      seen.note(params.update);
      spinner.stop();
      renderer.render(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      spinner.stop();
      renderer.renderPermission(params.toolCall); // output hook: the diff above the question
      const outcome = await chat.askPermission(params, tty);
      if (chat.running) {
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
      if (chat.running) {
        spinner.start("working…");
      }
      return answer;
    });
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

  const initialize: acp.InitializeRequest = {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, elicitation: { form: {} }, session: { compaction: {} } },
    clientInfo: { name: "weft-chat", title: "weft chat", version: options.version },
  };
  try {
    const init = await Promise.race([connection.agent.request(acp.methods.agent.initialize, initialize), connection.failure()]);
    const name = init.agentInfo?.title ?? init.agentInfo?.name ?? connection.label;
    renderer.agentName = name; // output hook: the agent's own name on its replies
    renderer.markdown = await markdown; // output hook: markdown on a colour terminal
    /** The lines listing the agent's sessions here (session-list.ts); undefined when it cannot list them. */
    const listSessions = async () => {
      if (!init.agentCapabilities?.sessionCapabilities?.list) {
        return undefined;
      }
      const sessions: acp.SessionInfo[] = [];
      let cursor: string | undefined;
      // Page on (within reason): the sessions left out of the list must not crowd out the rest.
      for (let page = 0; page < 20; page++) {
        const answer = await connection.agent.request(acp.methods.agent.session.list, { cwd: options.cwd, ...(cursor === undefined ? {} : { cursor }) });
        sessions.push(...answer.sessions);
        cursor = answer.nextCursor ?? undefined;
        if (cursor === undefined) {
          break;
        }
      }
      const runs = options.sessionsFile && options.agentKey ? new ChatSessions(options.sessionsFile).startedByRuns(options.cwd, options.agentKey) : new Map();
      return sessionListLines(sessions, runs, { all: Boolean(options.all), style, now: new Date() });
    };
    if (options.list) {
      const lines = await listSessions();
      if (lines === undefined) {
        write(`${name} cannot list its sessions.\n`);
        return await leave(1);
      }
      if (lines.length === 0) {
        write(`No sessions in ${options.cwd}.\n`);
      }
      for (const line of lines) {
        write(`${line}\n`);
      }
      return await leave(0);
    }
    const keys = "Ctrl-C cancels a turn; Ctrl-C twice or Ctrl-D leaves; /help lists commands.";
    // The header names the agent (its version too), the server it is reached at, and, once a
    // session is open, the model it answers with.
    const agentVersion = init.agentInfo?.version ? ` ${init.agentInfo.version}` : "";
    const server = "url" in options.agent ? ` at ${options.agent.url.origin}${options.agent.url.pathname}` : "";
    const header = `${name}${agentVersion}${server} in ${options.cwd}`;
    const showSession = (id: string, response: unknown) => {
      const model = sessionModel(configOptions, response);
      write(style.dim(`session ${id}${model === undefined ? "" : ` · model ${model}`}\n`));
    };
    // A new session is made only when first needed (the first prompt, /mode, /model), so a chat
    // left without a word adds nothing to the agent's session list.
    let sessionId: string | undefined;
    let opening: Promise<string> | undefined;
    const ensureSession = (): Promise<string> => {
      opening ??= connection.agent.request(acp.methods.agent.session.new, { cwd: options.cwd, mcpServers: [] }).then((response) => {
        sessionId = response.sessionId;
        modes = response.modes ?? undefined;
        configOptions = response.configOptions ?? configOptions;
        showSession(response.sessionId, response);
        return response.sessionId;
      });
      return opening;
    };
    if (options.resume) {
      if (!init.agentCapabilities?.loadSession) {
        write(`${name} cannot reopen sessions.\n`);
        return await leave(1);
      }
      sessionId = options.resume;
      opening = Promise.resolve(sessionId);
      // The header first, then the conversation as the agent replays it.
      write(style.dim(`${wrapWords(`${header} (session ${sessionId}). ${keys}`, columns())}\n`));
      let loaded: acp.LoadSessionResponse;
      try {
        loaded = await connection.agent.request(acp.methods.agent.session.load, { sessionId, cwd: options.cwd, mcpServers: [] });
      } catch (error) {
        if (!isUnknownSession(error)) {
          throw error;
        }
        write(style.red(`weft chat: ${unknownSessionMessage(sessionId, options.cwd)}\n`));
        return await leave(1);
      }
      modes = loaded.modes ?? undefined;
      configOptions = loaded.configOptions ?? configOptions;
      renderer.breakLine();
      const model = sessionModel(configOptions, loaded);
      if (model !== undefined) {
        write(style.dim(`model ${model}\n`));
      }
    } else {
      write(style.dim(`${wrapWords(`${header}. ${keys}`, columns())}\n`));
    }

    input.readline.on("SIGINT", () => {
      const action = chat.onInterrupt();
      if (action === "cancel" && sessionId !== undefined) {
        spinner.stop();
        void connection.agent.notify(acp.methods.agent.session.cancel, { sessionId }).catch(() => undefined);
      } else if (action === "exit") {
        input.readline.emit("close");
      }
    });
    const context = {
      write,
      style,
      columns,
      agentCommands: () => agentCommands,
      surface: () => ({ modes, configOptions }),
      listSessions,
      ensureSession,
      setMode: async (modeId: string) => {
        await connection.agent.request(acp.methods.agent.session.setMode, { sessionId: await ensureSession(), modeId });
        if (modes) {
          modes = { ...modes, currentModeId: modeId };
        }
      },
      setConfigOption: async (configId: string, value: string) => {
        const response = await connection.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: await ensureSession(), configId, value });
        configOptions = response.configOptions;
      },
    };
    /**
     * A remote agent's dropped connection, opened again: a new link, initialize, and session/load
     * of the open session, a few times before giving up. Says so either way.
     */
    const reconnect = async (): Promise<boolean> => {
      write(style.dim(`(${(await connection.ended).replace(/\.$/, "")}; reconnecting…)\n`));
      if (sessionId === undefined) {
        opening = undefined; // a session/new cut off by the drop is asked for again
      }
      for (let attempt = 1; ; attempt++) {
        try {
          replayed = [];
          await connection.reconnect(initialize, sessionId === undefined ? undefined : { sessionId, cwd: options.cwd });
          write(style.dim(`(reconnected${sessionId === undefined ? "" : `; session ${sessionId} reloaded`})\n`));
          // The turn the drop cut off, as the server carried it on: what the person has not seen of it.
          for (const update of seen.restOfLastTurn(replayed)) {
            renderer.render(update);
          }
          replayed = [];
          renderer.breakLine();
          return true;
        } catch (error) {
          if (attempt === 3) {
            write(style.red(`weft chat: could not reconnect: ${errorMessage(error)}\n`));
            return false;
          }
          await delay(attempt * 1_000);
        }
      }
    };
    for (;;) {
      const line = await input.next(style.bold("you › "));
      if (line === undefined) {
        break;
      }
      if (line.trim() === "") {
        continue;
      }
      chat.startTurn();
      try {
        if (line.startsWith("/")) {
          const handled = await runLocalCommand(line, context);
          if (handled === "quit") {
            break;
          }
          if (handled === "handled") {
            continue;
          }
        }
        if (connection.gone && connection.canReconnect && !(await reconnect())) {
          return await leave(1);
        }
        // The session first: a new one is announced (with its model) before the spinner starts.
        const id = await Promise.race([ensureSession(), connection.failure()]);
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
          if (!(await reconnect())) {
            return await leave(1);
          }
          continue;
        }
        write(style.red(`${errorMessage(error)}\n`));
        if (connection.gone) {
          return await leave(1);
        }
      } finally {
        chat.endTurn();
      }
    }
    if (sessionId !== undefined && !options.resume) {
      // The session was made during this chat: say how to come back to it.
      write(style.dim(`To carry on this session: weft chat --resume ${sessionId}\n`));
    }
    return await leave(0);
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

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** Whether a turn runs, and what Ctrl-C means at the moment. */
class ChatState {
  running = false;
  input: ChatInput | undefined;
  private cancelling = false;
  private lastInterrupt = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly style: Style,
    /** Ends the output's open line (a reply being written), so a notice starts on a line of its own. */
    private readonly breakLine: () => void,
  ) {}

  startTurn(): void {
    this.running = true;
    this.cancelling = false;
  }

  endTurn(): void {
    this.running = false;
    this.cancelling = false;
  }

  /** Ctrl-C: cancels a running turn; a second one (or one while idle, twice in a row) leaves. */
  onInterrupt(): "cancel" | "exit" | "hint" {
    const now = Date.now();
    if (this.running && !this.cancelling) {
      this.cancelling = true;
      this.input?.cancel();
      this.input?.unqueue();
      this.breakLine();
      this.write(this.style.dim("(cancelling; press Ctrl-C again to leave)\n"));
      return "cancel";
    }
    if (this.running || now - this.lastInterrupt < 2_000) {
      this.write("\n");
      return "exit";
    }
    this.lastInterrupt = now;
    this.write(this.style.dim("\n(press Ctrl-C again to leave)\n"));
    return "hint";
  }

  /** Asks which of the offered answers to give: one key on a terminal, a typed line otherwise. */
  async askPermission(request: acp.RequestPermissionRequest, singleKey: boolean): Promise<acp.RequestPermissionOutcome> {
    const input = this.input;
    const title = request.toolCall.title ?? "this tool call";
    const offered = permissionKeys(request.options);
    const menu = offered.map(({ key, label, option }) => `[${key}] ${label}${coverage(option)}`).join("  ");
    for (;;) {
      if (this.cancelling || !input) {
        return { outcome: "cancelled" };
      }
      const question = `  ${this.style.yellow("?")} Allow ${this.style.bold(title)}?  ${menu}`;
      const answer = singleKey
        ? await input.askKey(question, offered.map(({ key }) => key))
        : (await input.ask(`${question} › `))?.trim().toLowerCase();
      if (answer === undefined || this.cancelling) {
        return { outcome: "cancelled" };
      }
      const chosen = offered.find(({ key, label }) => answer === key || answer === label.toLowerCase() || (key === "y" && answer === "yes"));
      if (chosen) {
        return { outcome: "selected", optionId: chosen.option.optionId };
      }
      this.write(this.style.dim(`  Answer ${offered.map(({ key }) => key).join(", ")}.\n`));
    }
  }
}

/**
 * What an "always allow" option covers, as its name says after "Always allow" (the agent names
 * the scope there: "writes in `src/` and below"), in brackets; nothing for any other option.
 */
function coverage(option: acp.PermissionOption): string {
  const covered = option.kind === "allow_always" ? /^always allow\s+(.+)$/i.exec(option.name.trim())?.[1] : undefined;
  return covered ? ` (${covered})` : "";
}

/**
 * A key for each offered option: y, a, n, v for the first option of each kind (once, always, no,
 * never), and for any other (an agent's "Edit first", say) the first free letter of its name.
 */
function permissionKeys(options: readonly acp.PermissionOption[]): Array<{ key: string; label: string; option: acp.PermissionOption }> {
  const kinds: Record<string, [string, string]> = { allow_once: ["y", "once"], allow_always: ["a", "always"], reject_once: ["n", "no"], reject_always: ["v", "never"] };
  const keys: Array<{ key: string; label: string; option: acp.PermissionOption }> = [];
  const used = new Set<string>();
  const extra: acp.PermissionOption[] = [];
  for (const option of options) {
    const known = kinds[option.kind];
    if (known && !used.has(known[0])) {
      used.add(known[0]);
      keys.push({ key: known[0], label: known[1], option });
    } else {
      extra.push(option);
    }
  }
  for (const option of extra) {
    const key = [...option.name.toLowerCase(), ..."123456789"].find((letter) => /[a-z0-9]/.test(letter) && !used.has(letter));
    if (key) {
      used.add(key);
      keys.push({ key, label: option.name.toLowerCase(), option });
    }
  }
  const order = ["y", "a", "n", "v"];
  return keys.sort((left, right) => (order.includes(left.key) ? order.indexOf(left.key) : 4) - (order.includes(right.key) ? order.indexOf(right.key) : 4));
}
