// Runs an agent as a child process and drives it with the official ACP SDK client over the
// child's stdin and stdout, checking every line the agent writes (see acp-wire.ts).

import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

import * as acp from "@agentclientprotocol/sdk";

import { tappedStdin } from "../../src/testing/conformance/tapped-stdin.js";
import { WireChecker, type WireProblem } from "./acp-wire.js";
import { ChangeWaiters } from "./change-waiters.js";
import { lineSplitter } from "./lines.js";

export const fixturesDir = fileURLToPath(new URL("../fixtures/", import.meta.url));
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

export interface AgentProcessOptions {
  /** A fixture in test/fixtures, run with tsx. */
  fixture?: string;
  /** Or any command (for example the built `weft` bin). */
  command?: string;
  args?: string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Adds client handlers (fs, terminals) to the test editor. */
  configure?: (app: acp.ClientApp, agent: AgentProcess) => acp.ClientApp;
}

type PermissionAnswer = (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;
type FormAnswer = (request: acp.CreateElicitationRequest) => acp.CreateElicitationResponse | Promise<acp.CreateElicitationResponse>;

export class AgentProcess {
  readonly wire = new WireChecker();
  readonly updates: acp.SessionNotification[] = [];
  readonly permissions: acp.RequestPermissionRequest[] = [];
  stderr = "";
  /** How the test editor answers permission requests. Default: allow once. */
  answerPermission: PermissionAnswer = () => ({ outcome: { outcome: "selected", optionId: "allow_once" } });
  /** The forms the agent asked for (`elicitation/create`), in order. */
  readonly forms: acp.CreateElicitationRequest[] = [];
  /** How the test editor answers forms. Default: decline. */
  answerForm: FormAnswer = () => ({ action: "decline" });
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly connection: acp.ClientConnection;
  private readonly waiters = new ChangeWaiters();

  private constructor(
    readonly child: ChildProcess,
    options: AgentProcessOptions,
  ) {
    this.exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      this.stderr += chunk;
    });
    let app = acp
      .client({ name: "test-editor" })
      .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
        this.permissions.push(params);
        this.changed();
        return this.answerPermission(params);
      })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        this.updates.push(params);
        this.changed();
      })
      // After the update handler: the SDK runs an incoming message past each handler in turn, and
      // an update must reach its handler before the answer to the prompt that sent it resolves.
      .onRequest(acp.methods.client.elicitation.create, async ({ params }) => {
        this.forms.push(params);
        this.changed();
        return this.answerForm(params);
      });
    if (options.configure) {
      app = options.configure(app, this);
    }
    this.connection = app.connect(acp.ndJsonStream(tappedStdin(child.stdin, (line) => this.wire.fromClientLine(line)), this.fromAgent()));
  }

  static start(options: AgentProcessOptions): AgentProcess {
    const command = options.command ?? process.execPath;
    const args = options.command ? (options.args ?? []) : ["--import", "tsx", `${fixturesDir}${options.fixture ?? "agent.ts"}`, ...(options.args ?? [])];
    const child = spawn(command, args, {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    return new AgentProcess(child, options);
  }

  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  async initialize(capabilities: acp.ClientCapabilities = {}, protocolVersion = 1): Promise<acp.InitializeResponse> {
    return this.explained(this.agent.request(acp.methods.agent.initialize, { protocolVersion, clientCapabilities: capabilities, clientInfo: { name: "test-editor", version: "1.0.0" } }));
  }

  async newSession(cwd: string, mcpServers: acp.McpServer[] = []): Promise<string> {
    const { sessionId } = await this.explained(this.agent.request(acp.methods.agent.session.new, { cwd, mcpServers }));
    return sessionId;
  }

  /**
   * `request`, rejecting with how the agent exited and what it wrote to stderr when the agent went
   * away before answering: a bare "ACP connection closed" says nothing of why.
   */
  private async explained<T>(request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error) {
      if (this.child.exitCode === null && this.child.signalCode === null && !this.child.stdout?.readableEnded) {
        throw error;
      }
      const exit = await Promise.race([this.exited, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1_000))]);
      const how = exit ? `exited with ${exit.signal ?? `code ${exit.code}`}` : "closed its output";
      throw new Error(`The agent ${how} before answering (${error instanceof Error ? error.message : String(error)}). stderr:\n${this.stderr}`, { cause: error });
    }
  }

  prompt(sessionId: string, prompt: string | acp.ContentBlock[], options?: acp.SendRequestOptions): Promise<acp.PromptResponse> {
    const blocks: acp.ContentBlock[] = typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt;
    return this.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks }, options);
  }

  cancel(sessionId: string): Promise<void> {
    return this.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  }

  /** The updates of one session, in arrival order. */
  updatesOf(sessionId: string): acp.SessionUpdate[] {
    return this.updates.filter((notification) => notification.sessionId === sessionId).map((notification) => notification.update);
  }

  /** The agent's message text in one session, from update `from` on. */
  textOf(sessionId: string, from = 0): string {
    return this.updatesOf(sessionId)
      .slice(from)
      .map((update) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? update.content.text : ""))
      .join("");
  }

  /** Resolves once `condition` holds (checked after every update or permission request). */
  waitFor(condition: () => boolean, what = "a condition"): Promise<void> {
    return this.waiters.until(condition, 20_000, () => `Timed out waiting for ${what}. stderr:\n${this.stderr}`);
  }

  /** Writes a raw line to the agent, bypassing the SDK client. */
  writeRaw(line: string): void {
    this.wire.fromClientLine(line.trimEnd());
    this.child.stdin?.write(line.endsWith("\n") ? line : `${line}\n`);
  }

  /** The agent's raw answer to a request written with writeRaw, by its id. */
  async rawResponse(id: string | number | null): Promise<Record<string, unknown>> {
    const find = () => this.wire.fromAgent.find((message) => message.id === id && !("method" in message));
    for (let waited = 0; waited < 20_000; waited += 20) {
      const found = find();
      if (found) {
        return found;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`No response with id ${JSON.stringify(id)}. stderr:\n${this.stderr}`);
  }

  /** Closes the agent's stdin and waits for it to exit (killing it if it does not). */
  async stop(): Promise<void> {
    this.child.stdin?.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await this.exited;
    clearTimeout(timer);
    this.connection.close();
  }

  private changed(): void {
    this.waiters.changed();
  }

  private fromAgent(): ReadableStream<Uint8Array> {
    const stdout = this.child.stdout;
    const lines = lineSplitter((line) => this.wire.fromAgentLine(line));
    return new ReadableStream({
      start: (controller) => {
        stdout?.on("data", (chunk: Buffer) => {
          lines.push(chunk);
          controller.enqueue(new Uint8Array(chunk));
        });
        stdout?.on("end", () => {
          lines.end();
          controller.close();
        });
      },
    });
  }
}

/**
 * After a test: stops the agents still running (closing the connection to the others) and closes
 * the servers, emptying both lists; resolves with every line the agents wrote that broke the wire rules.
 */
export async function stopAndCheck(agents: AgentProcess[], servers: Array<{ close(): Promise<void> }> = []): Promise<WireProblem[]> {
  const problems: WireProblem[] = [];
  for (const agent of agents.splice(0)) {
    if (agent.child.exitCode === null && agent.child.signalCode === null) {
      await agent.stop();
    } else {
      agent.connection.close();
    }
    problems.push(...agent.wire.problems);
  }
  for (const server of servers.splice(0)) {
    await server.close();
  }
  return problems;
}
