// The commands a remote principal runs through `weft serve` (run_command, approved by the principal
// itself): confined by bwrap to the session's directories, without the server's environment, its
// session store (another principal's sessions are in it), its token and key files, or its network;
// stopped with all they started at their timeout; and refused, saying why, where bwrap is missing,
// unless the operator passed --unconfined-commands.

import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { beforeEach, describe, expect, it } from "vitest";

import { bwrapSkip } from "../../test/support/bwrap.js";
import { cleanupsAfterEach, temporaryDirectory } from "../../test/support/cleanups.js";
import { cleanUpStores, postgresSkip, postgresUrl, uniqueName } from "../../test/support/servers.js";
import { connectRemote, startWeftServe } from "../../test/support/weft-serve.js";
import { type ChatRequest, FakeModelServer } from "../testing/fake-model-server.js";

let base: string;
let home: string;
let project: string;
const cleanups = cleanupsAfterEach();
const onCleanup = (cleanup: () => Promise<void> | void) => void cleanups.push(cleanup);

beforeEach(() => {
  base = realpathSync(temporaryDirectory("weft-serve-commands-", cleanups));
  home = join(base, "home");
  project = join(home, "project");
  for (const directory of [project, join(home, ".ssh"), join(base, "outside")]) {
    mkdirSync(directory, { recursive: true });
  }
  writeFileSync(join(home, ".ssh/id_test"), "PRIVATE KEY\n");
  writeFileSync(join(home, "tokens.txt"), "t-bob-secret bob\n");
});

/** A model that, in a turn, makes the given run_command calls at once, then says "done"; titles are "A title". */
async function modelRunning(commands: Record<string, string | { command: string; timeout_ms: number }>): Promise<FakeModelServer> {
  const model = await FakeModelServer.start((request) => {
    if (!request.tools?.length) {
      return { text: "A title" };
    }
    if (request.messages.some((message) => message.role === "tool")) {
      return { text: "done" };
    }
    return { toolCalls: Object.entries(commands).map(([id, command]) => ({ id, name: "run_command", arguments: typeof command === "string" ? { command } : command })) };
  });
  onCleanup(() => model.close());
  return model;
}

/** What each run_command call of the latest turn returned, by its id. */
function results(model: FakeModelServer): Record<string, string> {
  const request = [...model.requests].reverse().find((each: ChatRequest) => each.messages.some((message) => message.role === "tool"));
  return Object.fromEntries((request?.messages ?? []).filter((message) => message.role === "tool").map((message) => [message.tool_call_id ?? "", String(message.content)]));
}

/** weft serve's environment: this test's home, a model, two principals' tokens, and an API key it must keep to itself. */
function serverEnv(model: FakeModelServer, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: home,
    XDG_STATE_HOME: join(home, ".local/state"),
    XDG_CONFIG_HOME: join(home, ".config"),
    WEFT_MODEL: "openai-compatible:fake",
    WEFT_BASE_URL: model.url,
    WEFT_MODELS: undefined,
    WEFT_API_KEY: "sk-weft-secret",
    OPENAI_API_KEY: "sk-openai-secret",
    WEFT_TOKENS: "t-ann-secret:ann",
    WEFT_LOG: "info",
    ...extra,
  };
}

/** Runs one turn as ann in `cwd`, and resolves once it has ended. */
async function turnAsAnn(url: string, cwd = project): Promise<void> {
  const ann = await connectRemote(url, "http", "t-ann-secret", cleanups);
  const { sessionId } = await ann.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  const answer = await ann.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "run them" }] });
  expect(answer.stopReason).toBe("end_turn");
}

/** The host's processes running exactly `argv`. */
function processesRunning(argv: readonly string[]): number[] {
  const wanted = `${argv.join("\0")}\0`;
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, "utf8") === wanted;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.skipIf(bwrapSkip)("weft serve's commands, confined by bwrap", () => {
  it("write in the session's directory only, and read neither the store with bob's session, nor tokens, keys or the server's environment, though all lie inside it", async () => {
    const store = join(home, ".local/state/weft");
    const probe = `weft-probe-${uniqueName("w")}`;
    // Unconfined, as before, the command would leave these behind.
    onCleanup(() => {
      rmSync(`/var/tmp/${probe}`, { force: true });
      rmSync(`/etc/${probe}`, { force: true });
    });
    const model = await modelRunning({
      write: "echo made > made.txt && echo '[made]'",
      // The store's files are large, and a tool's output is cut in the middle: grep finds the words wherever they are.
      store: `cat ${store}/* | grep -a -o "secret plan"; cat ${join(home, "tokens.txt")} ${join(home, ".ssh/id_test")}; ls -A ${store} | wc -l`,
      env: "env",
      escape: `echo x > ${join(base, "outside/x.txt")}; echo x > /var/tmp/${probe}; echo x > /etc/${probe}; echo '[tried]'`,
    });
    const served = await startWeftServe({ home, args: ["--root", home, "--tokens-file", join(home, "tokens.txt")], env: serverEnv(model), cleanups });
    expect(served.stderr()).toContain(`weft serve: a token lets its holder read and write files in ${home} and run commands confined to them (bwrap, no network); client MCP servers are refused`);
    expect(served.stderr()).toContain(`${join(home, "tokens.txt")} lies inside a --root`);

    // Bob's session is in the store before ann's commands run.
    const bob = await connectRemote(served.url, "http", "t-bob-secret", cleanups);
    const bobs = await bob.agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
    await bob.agent.request(acp.methods.agent.session.prompt, { sessionId: bobs.sessionId, prompt: [{ type: "text", text: "bob's secret plan" }] });
    expect(readdirSync(store).length).toBeGreaterThan(0);

    // The session is the whole home directory, the store, the tokens file and the key inside it.
    await turnAsAnn(served.url, home);
    const seen = results(model);
    expect(seen.write).toBe("Exit code 0.\n[made]\n");
    expect(readFileSync(join(home, "made.txt"), "utf8")).toBe("made\n");
    expect(seen.store).not.toContain("secret plan");
    expect(seen.store).not.toContain("t-bob-secret");
    expect(seen.store).not.toContain("PRIVATE KEY");
    expect(seen.store).toMatch(/^0$/m);
    expect(seen.env).toContain(`HOME=${home}`);
    for (const secret of ["t-ann-secret", "sk-weft-secret", "sk-openai-secret", "WEFT_TOKENS", "WEFT_BASE_URL", "XDG_STATE_HOME"]) {
      expect(seen.env).not.toContain(secret);
    }
    expect(seen.escape).toContain("[tried]");
    expect(existsSync(join(base, "outside/x.txt"))).toBe(false);
    expect(existsSync(`/var/tmp/${probe}`)).toBe(false);
    expect(existsSync(`/etc/${probe}`)).toBe(false);
  });

  it("stops a command at its timeout with everything it started", async () => {
    const marker = `${86_000 + Math.floor(Math.random() * 1000)}.${Date.now() % 1000}`;
    const model = await modelRunning({ slow: { command: `sleep ${marker} & sleep ${marker} & echo started; wait`, timeout_ms: 1500 } });
    const served = await startWeftServe({ home, args: ["--root", home], env: serverEnv(model), cleanups });
    await turnAsAnn(served.url);
    expect(results(model).slow).toMatch(/^Stopped after 1500 ms \(timeout\)\.\nstarted\n/);
    await expect.poll(() => processesRunning(["sleep", marker]), { timeout: 5_000 }).toEqual([]);
  });

  describe.skipIf(postgresSkip)("with the sessions in Postgres", () => {
    it("cannot reach the database, over TCP on loopback or its Unix socket", async () => {
      const database = new URL(postgresUrl as string);
      const host = database.hostname;
      const port = Number(database.port || 5432);
      const socket = `/var/run/postgresql/.s.PGSQL.${port}`;
      const sessions = `${postgresUrl}${postgresUrl?.includes("?") ? "&" : "?"}schema=${uniqueName("weft_test")}`;
      onCleanup(() => cleanUpStores([sessions]));
      const reach = (target: string) =>
        `${JSON.stringify(process.execPath)} -e "require('net').connect(${target}).on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => console.log('refused', e.code))"`;
      const model = await modelRunning({ tcp: reach(`${port}, '${host}'`), unix: reach(`'${socket}'`) });
      const served = await startWeftServe({ home, args: ["--root", home], env: serverEnv(model, { WEFT_SESSIONS: sessions }), cleanups });
      await turnAsAnn(served.url);
      const seen = results(model);
      // From the host (the server's place), both are open.
      expect(await reachable(() => connect(port, host))).toBe(true);
      expect(seen.tcp).toMatch(/refused E/);
      if (existsSync(socket)) {
        expect(await reachable(() => connect(socket))).toBe(true);
        expect(seen.unix).toMatch(/refused E/);
      }
    });
  });
});

describe("weft serve where bwrap is missing", () => {
  it("refuses run_command, saying why and what the operator can do; with --unconfined-commands it runs", async () => {
    const model = await modelRunning({ touch: "touch ran.txt && echo ran" });
    const missing = join(base, "no/bwrap");
    const refusing = await startWeftServe({ home, args: ["--root", home], env: serverEnv(model, { WEFT_BWRAP: missing }), cleanups });
    expect(refusing.stderr()).toContain(`and not run commands (run_command is refused: bwrap was not found at ${missing}; install bubblewrap`);
    await turnAsAnn(refusing.url);
    expect(results(model).touch).toBe(
      `Refused: run_command is not available here. This server runs commands confined to the session's directories, and bwrap was not found at ${missing}. Its operator can install bubblewrap (the bwrap command, in the bubblewrap package), or start weft serve with --unconfined-commands to run commands with the server's own access.`,
    );
    expect(existsSync(join(project, "ran.txt"))).toBe(false);
    refusing.child.kill("SIGKILL");

    const unconfined = await startWeftServe({ home, args: ["--root", home, "--unconfined-commands"], env: serverEnv(model, { WEFT_BWRAP: missing }), cleanups });
    expect(unconfined.stderr()).toContain("and run commands with this server's own access, environment and network (--unconfined-commands)");
    await turnAsAnn(unconfined.url);
    expect(results(model).touch).toBe("Exit code 0.\nran\n");
    expect(existsSync(join(project, "ran.txt"))).toBe(true);
  });
});

/** Whether a connection opens. */
function reachable(open: () => ReturnType<typeof connect>): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = open();
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
