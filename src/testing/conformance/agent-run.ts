// One run of the agent under check: the child process, and the official SDK client as the editor
// over its stdio. Every line both ways is kept raw, in order, so a scenario can judge what was on
// the wire and quote the line where it saw a problem.

import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { StringDecoder } from "node:string_decoder";

import * as acp from "@agentclientprotocol/sdk";

import { tappedStdin } from "./tapped-stdin.js";

/** One line on the wire: who wrote it, its text, and the message when it is a JSON object. */
export interface WireLine {
  from: "agent" | "client";
  text: string;
  message: Record<string, unknown> | undefined;
}

/** How to start the agent. */
export interface AgentCommand {
  command: string;
  args: readonly string[];
  env: Record<string, string | undefined>;
  cwd?: string | undefined;
}

type PermissionAnswer = (request: acp.RequestPermissionRequest) => Promise<acp.RequestPermissionResponse>;

/** Waiting for the agent took longer than a scenario allows; `what` says for what. */
export class WaitTimeout extends Error {}

export class AgentRun {
  readonly lines: WireLine[] = [];
  readonly permissions: acp.RequestPermissionRequest[] = [];
  /** The agent's fs/read_text_file requests, each answered from the disk. */
  readonly fileReads: acp.ReadTextFileRequest[] = [];
  /** What the client advertised in its last initialize, through the SDK client or past it. */
  advertised: acp.ClientCapabilities = {};
  stderr = "";
  /** How the editor answers permission requests; by default with the first option that allows once. */
  answerPermission: PermissionAnswer = async (request) => ({ outcome: { outcome: "selected", optionId: optionOf(request, "allow_once") ?? request.options[0]?.optionId ?? "" } });
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly connection: acp.ClientConnection;
  private readonly child: ChildProcess;
  private readonly listeners = new Set<() => void>();
  /** Ids of the lines written past the SDK client, whose answers the client must not see. */
  private readonly rawIds = new Set<string>();
  private readonly clientMethods = new Map<string, { method: string; params: Record<string, unknown> | undefined }>();

  constructor(
    command: AgentCommand,
    private readonly waitMs: number,
    private readonly onLine: (line: WireLine, run: AgentRun) => void,
  ) {
    this.child = spawn(command.command, [...command.args], { cwd: command.cwd, env: withoutUnset({ ...process.env, ...command.env }), stdio: ["pipe", "pipe", "pipe"] });
    this.exited = new Promise((resolve) => {
      this.child.on("exit", (code, signal) => resolve({ code, signal }));
      this.child.on("error", (error) => {
        this.stderr += `${error.message}\n`;
        resolve({ code: null, signal: null });
      });
    });
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => {
      // Enough of it to explain a failure, no more.
      this.stderr = (this.stderr + chunk).slice(-8_000);
    });
    this.child.stdin?.on("error", () => {});
    const app = acp
      .client({ name: "weft-conformance-check" })
      .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
        this.permissions.push(params);
        this.changed();
        return this.answerPermission(params);
      })
      // Asked only of a client that advertised fs.readTextFile (the fs-read scenario's).
      .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
        this.fileReads.push(params);
        this.changed();
        return { content: await readForAgent(params) };
      })
      .onNotification(acp.methods.client.session.update, () => {});
    this.connection = app.connect(acp.ndJsonStream(tappedStdin(this.child.stdin, (line) => this.record("client", line)), this.fromAgent()));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The method and params of the client's request with this id. */
  clientRequest(id: unknown): { method: string; params: Record<string, unknown> | undefined } | undefined {
    return this.clientMethods.get(JSON.stringify(id));
  }

  initialize(protocolVersion = acp.PROTOCOL_VERSION, clientCapabilities: acp.ClientCapabilities = {}): Promise<acp.InitializeResponse> {
    return this.request(acp.methods.agent.initialize, { protocolVersion, clientCapabilities, clientInfo: { name: "weft-conformance-check", version: "1.0.0" } });
  }

  async newSession(cwd: string): Promise<string> {
    return (await this.request(acp.methods.agent.session.new, { cwd, mcpServers: [] })).sessionId;
  }

  prompt(sessionId: string, text: string): Promise<acp.PromptResponse> {
    return this.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
  }

  cancel(sessionId: string): Promise<void> {
    return this.connection.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  }

  /**
   * A request through the SDK client. It rejects with how the agent exited, and the end of its
   * stderr, when the agent goes away first: "connection closed" alone says nothing of why.
   */
  async request<Method extends acp.AgentRequestMethod>(method: Method, params: acp.AgentRequestParamsByMethod[Method]): Promise<acp.AgentRequestResponsesByMethod[Method]> {
    const request = this.connection.agent.request(method, params);
    try {
      return await this.within(request, `the answer to ${method}`);
    } catch (error) {
      if (error instanceof WaitTimeout) {
        throw error;
      }
      // The connection closes as the agent exits: give the exit a moment to be seen.
      const exit = await Promise.race([this.exited, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000).unref())]);
      if (!exit) {
        throw error;
      }
      const how = exit.signal ? `was killed by ${exit.signal}` : exit.code === null ? "could not be started" : `exited with code ${exit.code}`;
      throw new Error(`the agent ${how} before answering ${method}.${this.stderrTail()}`, { cause: error });
    }
  }

  /** Writes a line to the agent past the SDK client; its answer, if any, is for `rawAnswer`. */
  writeRaw(line: string, id?: string): void {
    if (id !== undefined) {
      this.rawIds.add(JSON.stringify(id));
    }
    this.record("client", line);
    this.child.stdin?.write(`${line}\n`);
  }

  /** The agent's answer to a line written with `writeRaw`: the first answer with `id` after line `from`. */
  async rawAnswer(id: string | null, from: number, what: string): Promise<WireLine> {
    const find = () => this.lines.slice(from).find((line) => line.from === "agent" && line.message !== undefined && !("method" in line.message) && line.message.id === id);
    await this.waitFor(() => find() !== undefined, what);
    return find() as WireLine;
  }

  /** The session/update lines of one session, from line `from` on. */
  updates(sessionId: string, from = 0): Array<{ line: WireLine; update: Record<string, unknown> }> {
    const found: Array<{ line: WireLine; update: Record<string, unknown> }> = [];
    for (const line of this.lines.slice(from)) {
      const params = line.from === "agent" && line.message?.method === "session/update" ? (line.message.params as Record<string, unknown> | undefined) : undefined;
      if (params?.sessionId === sessionId && typeof params.update === "object" && params.update !== null) {
        found.push({ line, update: params.update as Record<string, unknown> });
      }
    }
    return found;
  }

  /** The agent's message text in one session from line `from` on. */
  text(sessionId: string, from = 0): string {
    return this.updates(sessionId, from)
      .map(({ update }) => (update.sessionUpdate === "agent_message_chunk" ? contentText(update.content) : ""))
      .join("");
  }

  /** The agent's answers to the client's `method` requests (for `sessionId`), from line `from` on. */
  answers(method: string, sessionId?: string, from = 0): Array<{ line: WireLine; index: number }> {
    const found: Array<{ line: WireLine; index: number }> = [];
    this.lines.forEach((line, index) => {
      if (index < from || line.from !== "agent" || line.message === undefined || "method" in line.message || !("id" in line.message)) {
        return;
      }
      const request = this.clientRequest(line.message.id);
      if (request?.method === method && (sessionId === undefined || request.params?.sessionId === sessionId)) {
        found.push({ line, index });
      }
    });
    return found;
  }

  /** Resolves once `condition` holds (checked after each line and permission request); rejects after the wait limit. */
  waitFor(condition: () => boolean, what: string, waitMs = this.waitMs): Promise<void> {
    if (condition()) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const check = () => {
        if (condition()) {
          clearTimeout(timer);
          this.listeners.delete(check);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new WaitTimeout(`timed out after ${waitMs / 1000} s waiting for ${what}.${this.stderrTail()}`));
      }, waitMs);
      this.listeners.add(check);
      void this.exited.then(() => {
        if (this.listeners.has(check) && !condition()) {
          clearTimeout(timer);
          this.listeners.delete(check);
          reject(new Error(`the agent exited while the check waited for ${what}.${this.stderrTail()}`));
        }
      });
    });
  }

  /** Like waitFor, but resolves with whether the condition held instead of rejecting. */
  async waitUpTo(condition: () => boolean, waitMs: number): Promise<boolean> {
    try {
      await this.waitFor(condition, "", waitMs);
      return true;
    } catch {
      return false;
    }
  }

  /** Closes the agent's stdin, as an editor does, and waits for it to exit: SIGTERM after a while, then SIGKILL. */
  async stop(): Promise<void> {
    if (this.running) {
      this.child.stdin?.end();
      const term = setTimeout(() => this.child.kill("SIGTERM"), 3_000);
      const kill = setTimeout(() => this.child.kill("SIGKILL"), 6_000);
      await this.exited;
      clearTimeout(term);
      clearTimeout(kill);
    }
    this.connection.close();
  }

  /** Kills the agent at once (SIGKILL), as a crash would end it. */
  async kill(): Promise<void> {
    this.child.kill("SIGKILL");
    await this.exited;
    this.connection.close();
  }

  stderrTail(): string {
    const tail = this.stderr.trim().split("\n").slice(-8).join("\n");
    return tail ? ` Its stderr ended:\n${tail}` : "";
  }

  /** Races `promise` against the wait limit. */
  within<T>(promise: Promise<T>, what: string, waitMs = this.waitMs): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new WaitTimeout(`timed out after ${waitMs / 1000} s waiting for ${what}.${this.stderrTail()}`)), waitMs);
      promise.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  private record(from: WireLine["from"], text: string): WireLine {
    let message: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      message = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      message = undefined;
    }
    const line: WireLine = { from, text, message };
    if (from === "client" && message !== undefined && typeof message.method === "string" && "id" in message) {
      this.clientMethods.set(JSON.stringify(message.id), { method: message.method, params: message.params as Record<string, unknown> | undefined });
      if (message.method === "initialize") {
        this.advertised = ((message.params as { clientCapabilities?: acp.ClientCapabilities } | undefined)?.clientCapabilities ?? {}) as acp.ClientCapabilities;
      }
    }
    this.lines.push(line);
    this.onLine(line, this);
    return line;
  }

  /** Checks the conditions waited for again: something they depend on changed off the wire. */
  poke(): void {
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) {
      listener();
    }
  }

  /**
   * The agent's stdout as the SDK client reads it: line by line, each recorded first. The client
   * is not shown what it cannot take (lines that are not JSON objects, answers to raw lines), so
   * it logs nothing; the scenarios judge those lines themselves.
   */
  private fromAgent(): ReadableStream<Uint8Array> {
    const stdout = this.child.stdout;
    const encoder = new TextEncoder();
    const decoder = new StringDecoder("utf8");
    let pending = "";
    // False once the stream is closed or the client stopped reading (the connection was closed).
    let open = true;
    return new ReadableStream({
      cancel: () => {
        open = false;
      },
      start: (controller) => {
        const take = (text: string) => {
          if (!text.trim()) {
            return;
          }
          const line = this.record("agent", text);
          const message = line.message;
          const raw = message !== undefined && !("method" in message) && (this.rawIds.has(JSON.stringify(message.id)) || message.id === null);
          if (message !== undefined && !raw && open) {
            controller.enqueue(encoder.encode(`${text}\n`));
          }
          this.changed();
        };
        stdout?.on("data", (chunk: Buffer) => {
          pending += decoder.write(chunk);
          for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n")) {
            const text = pending.slice(0, newline);
            pending = pending.slice(newline + 1);
            take(text);
          }
        });
        stdout?.on("end", () => {
          take(pending + decoder.end());
          pending = "";
          if (open) {
            open = false;
            controller.close();
          }
          this.changed();
        });
      },
    });
  }
}

/** A file as the client serves it to the agent: from the disk, the lines asked for (`line` counts from 1). */
async function readForAgent(params: acp.ReadTextFileRequest): Promise<string> {
  if (!isAbsolute(params.path)) {
    throw acp.RequestError.invalidParams({ path: params.path }, "fs/read_text_file takes an absolute path");
  }
  let content: string;
  try {
    content = await readFile(params.path, "utf8");
  } catch {
    throw acp.RequestError.resourceNotFound(params.path);
  }
  if ((params.line === undefined || params.line === null) && !params.limit) {
    return content;
  }
  const first = Math.max(0, (params.line ?? 1) - 1);
  return content
    .split("\n")
    .slice(first, params.limit ? first + params.limit : undefined)
    .join("\n");
}

/** The id of the first option of this kind. */
export function optionOf(request: acp.RequestPermissionRequest, kind: acp.PermissionOption["kind"]): string | undefined {
  return request.options.find((option) => option.kind === kind)?.optionId;
}

/** The text of a content block, or empty. */
export function contentText(content: unknown): string {
  return typeof content === "object" && content !== null && (content as { type?: unknown }).type === "text" ? String((content as { text?: unknown }).text) : "";
}

function withoutUnset(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
