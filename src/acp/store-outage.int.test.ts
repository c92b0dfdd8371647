// A store that goes away mid-session: a private redis-server on a spare port (with an append-only
// file, so a restart keeps its data) is stopped and started under a running agent; the shared
// Postgres is cut off behind a TCP proxy and reconnected. And a store that goes silent, as in a
// network partition: `weft acp` with the shared Postgres or Redis behind a stalled TCP proxy.

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";

import { AgentProcess, repoRoot } from "../../test/support/agent-process.js";
import { cleanUpStores, postgresSkip, postgresUrl, redisSkip, redisUrl, uniqueName } from "../../test/support/servers.js";
import { TcpProxy } from "../../test/support/tcp-proxy.js";
import { FakeModelServer, type ChatRequest } from "../testing/fake-model-server.js";

const redisServer = await new Promise<string | undefined>((resolve) => {
  const which = spawn("sh", ["-c", "command -v redis-server"]);
  let out = "";
  which.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  which.on("exit", (code) => resolve(code === 0 ? out.trim() : undefined));
});
const skip = redisServer ? undefined : "redis-server is not installed (apt-get install redis-server)";

const dir = mkdtempSync(join(tmpdir(), "weft-outage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(redisServer as string, ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--appendfsync", "always", "--save", ""], { stdio: "ignore" });
  const probe = new Redis({ port, host: "127.0.0.1", lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
  probe.on("error", () => undefined);
  await probe.connect().catch(() => undefined);
  await probe.ping();
  probe.disconnect();
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/**
 * One session through an outage: a turn, the store goes away (a prompt then gets a clear error and
 * the agent still answers), the store comes back (the session works again), and a new process
 * reloads the session with both acknowledged turns in it.
 */
async function throughOutage(store: string, goDown: () => Promise<void>, comeBack: () => Promise<void>): Promise<void> {
  const model = await FakeModelServer.start((request) => ({ text: `reply ${request.messages.filter((message) => message.role === "user").length}` }));
  const agent = AgentProcess.start({ fixture: "agent.ts", env: { FAKE_MODEL_URL: model.url, WEFT_TEST_STORE: store } });
  try {
    await agent.initialize();
    const sessionId = await agent.newSession(dir);
    expect((await agent.prompt(sessionId, "first")).stopReason).toBe("end_turn");

    await goDown();
    await expect(agent.prompt(sessionId, "while down")).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("store is unavailable") });
    // Every method that needs the store says so, with the same message and code.
    const outage = { code: -32603, message: expect.stringMatching(/^The session store is unavailable: /), data: { code: "store_unavailable" } };
    await expect(agent.agent.request(acp.methods.agent.session.new, { cwd: dir, mcpServers: [] })).rejects.toMatchObject(outage);
    await expect(agent.agent.request(acp.methods.agent.session.list, {})).rejects.toMatchObject(outage);
    await expect(agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: dir, mcpServers: [] })).rejects.toMatchObject(outage);
    await expect(agent.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: dir })).rejects.toMatchObject(outage);
    await expect(agent.agent.request(acp.methods.agent.session.delete, { sessionId })).rejects.toMatchObject(outage);
    expect(agent.child.exitCode).toBeNull();
    expect((await agent.initialize()).protocolVersion).toBe(1);

    await comeBack();
    // Drivers reconnect by themselves; the session works again as soon as they have.
    await expect
      .poll(async () => (await agent.agent.request(acp.methods.agent.session.list, {}).then(() => "up", () => "down")), { timeout: 15_000, interval: 200 })
      .toBe("up");
    expect((await agent.prompt(sessionId, "second")).stopReason).toBe("end_turn");
    expect(agent.wire.problems).toEqual([]);
    await agent.stop();

    const reader = AgentProcess.start({ fixture: "agent.ts", env: { FAKE_MODEL_URL: model.url, WEFT_TEST_STORE: store } });
    await reader.initialize();
    await reader.agent.request(acp.methods.agent.session.load, { sessionId, cwd: dir, mcpServers: [] });
    const users = reader.updatesOf(sessionId).flatMap((update) => (update.sessionUpdate === "user_message_chunk" && update.content.type === "text" ? [update.content.text] : []));
    expect(users).toEqual(["first", "second"]);
    expect(reader.textOf(sessionId)).toBe("reply 1reply 2");
    await reader.stop();
  } finally {
    if (agent.child.exitCode === null) {
      await agent.stop();
    }
    await model.close();
  }
}

/**
 * The store goes away in the middle of a turn: the prompt gets -32603, and once the store is back
 * the editor sends it again. It must be in the conversation once, and the conversation must
 * alternate, here and in a new process.
 */
async function outageMidTurn(store: string, goDown: () => Promise<void>, comeBack: () => Promise<void>): Promise<void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding = true;
  const model = await FakeModelServer.start((request) => {
    const users = request.messages.filter((message) => message.role === "user");
    if (users.at(-1)?.content === "mid" && holding) {
      holding = false;
      return { text: ["half ", "a reply"], beforeChunk: (index) => (index === 2 ? held : undefined) };
    }
    return { text: `reply ${users.length}` };
  });
  const agent = AgentProcess.start({ fixture: "agent.ts", env: { FAKE_MODEL_URL: model.url, WEFT_TEST_STORE: store } });
  try {
    await agent.initialize();
    const sessionId = await agent.newSession(dir);
    expect((await agent.prompt(sessionId, "first")).stopReason).toBe("end_turn");
    const answer = agent.prompt(sessionId, "mid").then(
      () => "answered",
      (error: unknown) => error,
    );
    await agent.waitFor(() => agent.textOf(sessionId).endsWith("half "), "the reply to start");
    await goDown();
    release();
    expect(await answer).toMatchObject({ code: -32603, data: { code: "store_unavailable" } });

    await comeBack();
    await expect
      .poll(async () => (await agent.agent.request(acp.methods.agent.session.list, {}).then(() => "up", () => "down")), { timeout: 15_000, interval: 200 })
      .toBe("up");
    expect((await agent.prompt(sessionId, "mid")).stopReason).toBe("end_turn");
    const conversation = (request: ChatRequest | undefined) => request?.messages.map((message) => `${message.role}:${typeof message.content === "string" ? message.content : ""}`);
    expect(conversation(model.requests.at(-1))).toEqual(["system:You are a test agent.", "user:first", "assistant:reply 1", "user:mid"]);
    await agent.stop();

    const reader = AgentProcess.start({ fixture: "agent.ts", env: { FAKE_MODEL_URL: model.url, WEFT_TEST_STORE: store } });
    await reader.initialize();
    await reader.agent.request(acp.methods.agent.session.load, { sessionId, cwd: dir, mcpServers: [] });
    const users = reader.updatesOf(sessionId).flatMap((update) => (update.sessionUpdate === "user_message_chunk" && update.content.type === "text" ? [update.content.text] : []));
    expect(users).toEqual(["first", "mid"]);
    expect(reader.textOf(sessionId)).toBe("reply 1reply 2");
    expect(reader.wire.problems).toEqual([]);
    await reader.stop();
  } finally {
    if (agent.child.exitCode === null) {
      await agent.stop();
    }
    await model.close();
  }
}

/** What an outage test does to a store: `goDown` cuts it off, `comeBack` brings it back. */
type OutageScenario = (store: string, goDown: () => Promise<void>, comeBack: () => Promise<void>) => Promise<void>;

/** Runs `scenario` against a Redis of its own on a free port, stopped to go down and started again to come back. */
async function againstRedis(scenario: OutageScenario): Promise<void> {
  const port = await freePort();
  let redis = await startRedis(port);
  try {
    await scenario(
      `redis://127.0.0.1:${port}`,
      () => stopRedis(redis),
      async () => {
        redis = await startRedis(port);
      },
    );
  } finally {
    await stopRedis(redis).catch(() => undefined);
  }
}

/** Runs `scenario` against a schema of its own in the test Postgres, through a proxy that cuts it off and lets it through again. */
async function againstPostgresBehindProxy(scenario: OutageScenario): Promise<void> {
  const target = new URL(postgresUrl as string);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.up();
  const through = new URL(target);
  through.port = String(proxy.port);
  through.searchParams.set("schema", uniqueName("weft_test"));
  try {
    await scenario(
      through.toString(),
      () => proxy.down(),
      () => proxy.up(),
    );
  } finally {
    await proxy.down();
    const direct = new URL(through);
    direct.port = target.port || "5432";
    await cleanUpStores([direct.toString()]);
  }
}

describe.skipIf(skip !== undefined)(`a Redis that stops${skip ? ` (skipped: ${skip})` : ""}`, () => {
  it("answers a clear error while Redis is down, keeps running, and loses nothing once it is back", async () => {
    await againstRedis(throughOutage);
  });
});

describe.skipIf(skip !== undefined)(`a Redis that stops mid-turn${skip ? ` (skipped: ${skip})` : ""}`, () => {
  it("takes back the prompt that got the error, so sending it again makes no duplicate", async () => {
    await againstRedis(outageMidTurn);
  });
});

describe.skipIf(postgresSkip !== undefined)(`a Postgres cut off mid-turn${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`, () => {
  it("takes back the prompt that got the error, so sending it again makes no duplicate", async () => {
    await againstPostgresBehindProxy(outageMidTurn);
  });
});

describe.skipIf(postgresSkip !== undefined)(`a Postgres that becomes unreachable${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`, () => {
  it("answers a clear error while the connection is cut, keeps running, and loses nothing once it is back", async () => {
    await againstPostgresBehindProxy(throughOutage);
  });
});

/**
 * `weft acp` with its sessions behind a proxy that goes silent mid-session: a prompt then gets an
 * error that says the store is unavailable, long before the network would give up on its own
 * (over 40 s with no store timeouts); the agent still answers, and once the proxy forwards again
 * the session works.
 */
async function throughSilence(kind: "postgres" | "redis", server: string, parameters: Record<string, string>): Promise<void> {
  const target = new URL(server);
  const proxy = new TcpProxy(target.hostname, Number(target.port || (kind === "postgres" ? 5432 : 6379)));
  await proxy.up();
  const through = new URL(target);
  through.port = String(proxy.port);
  for (const [name, value] of Object.entries(parameters)) {
    through.searchParams.set(name, value);
  }
  const model = await FakeModelServer.start((request) => ({ text: `reply ${request.messages.filter((message) => message.role === "user").length}` }));
  const agent = AgentProcess.start({
    command: process.execPath,
    args: [join(repoRoot, "bin/weft.js"), "acp", "--sessions", through.toString()],
    env: { WEFT_MODEL: "openai-compatible:fake-model", WEFT_BASE_URL: model.url, WEFT_SESSIONS: undefined, OPENAI_API_KEY: undefined },
  });
  try {
    await agent.initialize();
    const sessionId = await agent.newSession(dir);
    expect((await agent.prompt(sessionId, "first")).stopReason).toBe("end_turn");

    proxy.stall();
    const silent = await settleWithin(20_000, agent.prompt(sessionId, "while silent"));
    expect(silent).toMatchObject({ status: "rejected", reason: { code: -32603, message: expect.stringContaining(`The ${kind} store is unavailable`) } });
    expect(silent.status === "rejected" && String((silent.reason as Error).message)).toMatch(/did not answer within 1 s|could not connect within 1 s/);
    expect(agent.child.exitCode).toBeNull();
    expect((await agent.initialize()).protocolVersion).toBe(1);

    proxy.resume();
    await expect
      .poll(async () => (await agent.agent.request(acp.methods.agent.session.list, {}).then(() => "up", () => "down")), { timeout: 15_000, interval: 200 })
      .toBe("up");
    const seen = agent.updatesOf(sessionId).length;
    expect((await agent.prompt(sessionId, "after")).stopReason).toBe("end_turn");
    expect(agent.textOf(sessionId, seen)).toMatch(/^reply \d$/);
    expect(agent.wire.problems).toEqual([]);
  } finally {
    if (agent.child.exitCode === null) {
      await agent.stop();
    }
    await model.close();
    await proxy.down();
    const place = kind === "postgres" ? "schema" : "prefix";
    const direct = new URL(server);
    direct.searchParams.set(place, through.searchParams.get(place) ?? "");
    await cleanUpStores([direct.toString()]);
  }
}

/** How `promise` settled, or a failure if it has not within `ms`. */
async function settleWithin<T>(ms: number, promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${ms} ms.`)), ms);
  });
  try {
    const [settled] = await Promise.race([Promise.allSettled([promise]), late]);
    return settled as PromiseSettledResult<T>;
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(postgresSkip !== undefined)(`weft acp with a Postgres that goes silent${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`, () => {
  it("answers a prompt with a store error within the timeouts, keeps running, and works once the network heals", async () => {
    await throughSilence("postgres", postgresUrl as string, { schema: uniqueName("weft_test"), connect_timeout_ms: "1000", query_timeout_ms: "1000" });
  });
});

describe.skipIf(redisSkip !== undefined)(`weft acp with a Redis that goes silent${redisSkip ? ` (skipped: ${redisSkip})` : ""}`, () => {
  it("answers a prompt with a store error within the timeouts, keeps running, and works once the network heals", async () => {
    await throughSilence("redis", redisUrl as string, { prefix: uniqueName("weft-test"), connect_timeout_ms: "1000", command_timeout_ms: "1000" });
  });
});
