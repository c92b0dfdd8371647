// `weft chat`: a terminal client for any ACP agent. It starts the agent, sends what the person
// types, shows the agent's replies, tool calls and diffs as they stream, asks for permissions, and
// answers the agent's fs/* and terminal/* requests itself within the chosen directory.

import { spawn } from "node:child_process";
import { createInterface, type Interface } from "node:readline";
import { Readable, Writable } from "node:stream";

import * as acp from "@agentclientprotocol/sdk";

import { LocalFiles } from "./local-files.js";
import { LocalTerminals } from "./local-terminals.js";
import { markdownFor } from "./markdown.js";
import { type Style, terminalStyle, UpdateRenderer } from "./render-updates.js";
import { Spinner } from "./spinner.js";

export interface ChatOptions {
  /** The agent's command and arguments. */
  agent: string[];
  /** The session's directory; fs and terminal requests stay inside it. */
  cwd: string;
  /** Print the agent's sessions and exit. */
  list?: boolean | undefined;
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
  const write = (text: string) => {
    options.output.write(text);
  };
  const renderer = new UpdateRenderer(write, style);
  const markdown = markdownFor(options.output); // output hook: loads while the agent starts
  const spinner = new Spinner(write, tty);
  const files = new LocalFiles(options.cwd);
  const terminals = new LocalTerminals(options.cwd, renderer.terminalListener(() => spinner.stop())); // output hook: commands show live
  const [command, ...args] = options.agent;
  if (!command) {
    write("weft chat: no agent command.\n");
    return 2;
  }
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["pipe", "pipe", "pipe"] });
  let agentErrors = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => {
    agentErrors = (agentErrors + text).slice(-4000);
  });
  const exited = new Promise<string>((resolve) => {
    child.on("error", (error) => resolve(`could not be started: ${error.message}`));
    child.on("exit", (code, signal) => resolve(signal ? `was killed by ${signal}` : `exited with code ${code}`));
  });

  const rl = createInterface({ input: options.input, output: options.output, terminal: tty });
  const chat = new ChatState(rl, write, style);
  const connection = acp
    .client({ name: "weft-chat" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      spinner.stop();
      renderer.render(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      spinner.stop();
      renderer.renderPermission(params.toolCall); // output hook: the diff above the question
      const outcome = await chat.askPermission(params);
      if (chat.running) {
        spinner.start("working…");
      }
      return { outcome };
    })
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => files.read(params))
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => files.write(params))
    .onRequest(acp.methods.client.terminal.create, ({ params }) => terminals.create(params))
    .onRequest(acp.methods.client.terminal.output, ({ params }) => terminals.output(params))
    .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => terminals.waitForExit(params))
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => terminals.kill(params))
    .onRequest(acp.methods.client.terminal.release, ({ params }) => terminals.release(params))
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  const agent = connection.agent;

  const leave = async (code: number) => {
    spinner.stop();
    rl.close();
    terminals.dispose();
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(timer);
    connection.close();
    return code;
  };

  try {
    const init = await Promise.race([
      agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: "weft-chat", title: "weft chat", version: options.version },
      }),
      exited.then((how) => Promise.reject(new Error(`The agent ${how}.${agentErrors ? `\n${agentErrors.trim()}` : ""}`))),
    ]);
    const name = init.agentInfo?.title ?? init.agentInfo?.name ?? command;
    renderer.agentName = name; // output hook: the agent's own name on its replies
    renderer.markdown = await markdown; // output hook: markdown on a colour terminal
    if (options.list) {
      if (!init.agentCapabilities?.sessionCapabilities?.list) {
        write(`${name} cannot list its sessions.\n`);
        return await leave(1);
      }
      const { sessions } = await agent.request(acp.methods.agent.session.list, { cwd: options.cwd });
      if (sessions.length === 0) {
        write(`No sessions in ${options.cwd}.\n`);
      }
      for (const session of sessions) {
        write(`${session.sessionId}  ${style.dim(session.updatedAt ?? "")}  ${session.title ?? ""}\n`);
      }
      return await leave(0);
    }
    let sessionId: string;
    if (options.resume) {
      if (!init.agentCapabilities?.loadSession) {
        write(`${name} cannot reopen sessions.\n`);
        return await leave(1);
      }
      sessionId = options.resume;
      await agent.request(acp.methods.agent.session.load, { sessionId, cwd: options.cwd, mcpServers: [] });
      renderer.breakLine();
    } else {
      sessionId = (await agent.request(acp.methods.agent.session.new, { cwd: options.cwd, mcpServers: [] })).sessionId;
    }
    write(style.dim(`${name} in ${options.cwd} (session ${sessionId}). Ctrl-C cancels a turn; Ctrl-C twice or Ctrl-D leaves.\n`));

    rl.on("SIGINT", () => {
      if (chat.onInterrupt() === "cancel") {
        spinner.stop();
        void agent.notify(acp.methods.agent.session.cancel, { sessionId });
      } else if (chat.wantsExit) {
        rl.emit("close");
      }
    });
    for (;;) {
      const line = await chat.read(style.bold("you › "));
      if (line === undefined) {
        break;
      }
      if (line.trim() === "") {
        continue;
      }
      chat.startTurn();
      spinner.start("thinking…");
      try {
        const response = await Promise.race([
          agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: line }] }),
          exited.then((how) => Promise.reject(new Error(`The agent ${how}.`))),
        ]);
        spinner.stop();
        renderer.breakLine();
        if (response.stopReason !== "end_turn") {
          write(style.dim(`(${response.stopReason.replaceAll("_", " ")})\n`));
        }
        write(renderer.turnSummary()); // output hook: usage and cost after the turn
      } catch (error) {
        spinner.stop();
        renderer.breakLine();
        write(style.red(`${error instanceof Error ? error.message : String(error)}\n`));
        if (child.exitCode !== null || child.signalCode !== null) {
          return await leave(1);
        }
      } finally {
        chat.endTurn();
      }
    }
    return await leave(0);
  } catch (error) {
    spinner.stop();
    let message = error instanceof Error ? error.message : String(error);
    if (child.exitCode !== null || child.signalCode !== null || (await Promise.race([exited.then(() => true), delay(500).then(() => false)]))) {
      // The agent went away: say how, with the end of what it wrote to stderr.
      message = `The agent ${await exited}.${agentErrors ? `\n${agentErrors.trim()}` : ""}`;
    }
    write(style.red(`weft chat: ${message}\n`));
    return await leave(1);
  }
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** What the person is doing: typing, waiting on a turn, or answering a permission prompt. */
class ChatState {
  running = false;
  wantsExit = false;
  private cancelling = false;
  private lastInterrupt = 0;
  private pendingAnswer: ((answer: string | undefined) => void) | undefined;
  /** True while readline has a question open (its answer goes to whoever waits then). */
  private asking = false;
  private closed = false;

  constructor(
    private readonly rl: Interface,
    private readonly write: (text: string) => void,
    private readonly style: Style,
  ) {
    rl.on("close", () => {
      this.closed = true;
      this.pendingAnswer?.(undefined);
    });
  }

  /** One line from the person, or undefined once the input has ended. */
  read(prompt: string): Promise<string | undefined> {
    if (this.closed) {
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      this.pendingAnswer = resolve;
      if (this.asking) {
        // A question withdrawn earlier (a cancelled permission prompt) is still open: reuse it.
        this.rl.setPrompt(prompt);
        this.rl.prompt();
        return;
      }
      this.asking = true;
      this.rl.question(prompt, (answer) => {
        this.asking = false;
        const waiting = this.pendingAnswer;
        this.pendingAnswer = undefined;
        waiting?.(answer);
      });
    });
  }

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
      const waiting = this.pendingAnswer;
      this.pendingAnswer = undefined;
      waiting?.("cancel");
      this.write(this.style.dim("\n(cancelling; press Ctrl-C again to leave)\n"));
      return "cancel";
    }
    if (this.running || now - this.lastInterrupt < 2_000) {
      this.wantsExit = true;
      this.write("\n");
      return "exit";
    }
    this.lastInterrupt = now;
    this.write(this.style.dim("\n(press Ctrl-C again to leave)\n"));
    return "hint";
  }

  async askPermission(request: acp.RequestPermissionRequest): Promise<acp.RequestPermissionOutcome> {
    const title = request.toolCall.title ?? "this tool call";
    const byKind = new Map(request.options.map((option) => [option.kind, option]));
    const keys: Array<[string, acp.PermissionOptionKind, string]> = [
      ["y", "allow_once", "once"],
      ["a", "allow_always", "always"],
      ["n", "reject_once", "no"],
      ["v", "reject_always", "never"],
    ];
    const offered = keys.filter(([, kind]) => byKind.has(kind));
    const menu = offered.map(([key, , label]) => `[${key}] ${label}`).join("  ");
    for (;;) {
      if (this.cancelling || this.closed) {
        return { outcome: "cancelled" };
      }
      const answer = (await this.read(`  ${this.style.yellow("?")} Allow ${this.style.bold(title)}?  ${menu} › `))?.trim().toLowerCase();
      if (answer === undefined || answer === "cancel" || this.cancelling) {
        return { outcome: "cancelled" };
      }
      const chosen = offered.find(([key, , label]) => answer === key || answer === label || (key === "y" && answer === "yes"));
      const option = chosen && byKind.get(chosen[1]);
      if (option) {
        return { outcome: "selected", optionId: option.optionId };
      }
      this.write(this.style.dim(`  Answer ${offered.map(([key]) => key).join(", ")}.\n`));
    }
  }
}
