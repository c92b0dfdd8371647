// createAgent() through a real AI SDK provider (@ai-sdk/openai-compatible) against the fake
// chat-completions server over loopback HTTP.

import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

import type { RunEvent } from "../graph/events.js";
import { userMessage } from "../graph/messages.js";
import type { GraphRun } from "../graph/run-outcome.js";
import { resolveModel } from "../models/resolve-model.js";
import { FakeModelServer, type FakeScript } from "../testing/fake-model-server.js";
import type { ToolMessage } from "../types/messages.js";
import { approvalId } from "./approval-policy.js";
import { createAgent, type AgentOptions } from "./create-agent.js";
import { ModelCallError } from "./agent-errors.js";
import { EMPTY_REPLY_NOTE } from "./stream-model.js";
import { defineTool } from "./tool.js";

const servers: FakeModelServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.close();
  }
});

async function agentOn(script: FakeScript, options: Omit<AgentOptions, "model"> = {}) {
  const server = await FakeModelServer.start(script);
  servers.push(server);
  const model = await resolveModel("openai-compatible:fake-model", { baseURL: server.url });
  return { server, agent: createAgent({ model, ...options }) };
}

async function collect(run: GraphRun): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run) {
    events.push(event);
  }
  return events;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const input = (text: string) => ({ messages: [userMessage(text)] });

describe("createAgent over an OpenAI-compatible server", () => {
  it("streams text as several deltas before the model has finished", async () => {
    const release = deferred();
    const { agent } = await agentOn([
      {
        text: ["Hel", "lo, ", "world"],
        // Hold the stream before the finish chunk until the test has seen the deltas.
        beforeChunk: (index) => (index === 4 ? release.promise : undefined),
      },
    ]);
    const run = agent.run(input("hi"), { threadId: "t" });
    const deltas: string[] = [];
    const iterator = run[Symbol.asyncIterator]();
    while (deltas.length < 3) {
      const { value } = await iterator.next();
      if (value.type === "text-delta") {
        deltas.push(value.delta);
      }
      expect(value.type).not.toBe("message-end");
    }
    expect(deltas).toEqual(["Hel", "lo, ", "world"]);
    release.resolve();
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      // drain
    }
    const outcome = await run.outcome;
    expect(outcome.status).toBe("completed");
    const last = outcome.status === "completed" ? outcome.output.messages.at(-1) : undefined;
    expect(last?.role).toBe("assistant");
    expect(last?.parts).toEqual([{ type: "text", text: "Hello, world" }]);
  });

  it("streams reasoning as reasoning deltas", async () => {
    const { agent } = await agentOn([{ reasoning: ["Think", "ing"], text: "Done." }]);
    const events = await collect(agent.run(input("hi"), { threadId: "t" }));
    expect(events.filter((event) => event.type === "reasoning-delta").map((event) => (event as { delta: string }).delta)).toEqual(["Think", "ing"]);
  });

  it("sends a tool's result back in the next model request", async () => {
    const { agent, server } = await agentOn([{ toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] }, { text: "It is 5." }], { tools: [add], instructions: "Be brief." });
    const run = agent.run(input("2+3?"), { threadId: "t" });
    const events = await collect(run);
    expect((await run.outcome).status).toBe("completed");
    const types = events.map((event) => event.type);
    expect(types.indexOf("tool-call-end")).toBeLessThan(types.indexOf("tool-start"));
    expect(types.indexOf("tool-start")).toBeLessThan(types.indexOf("tool-end"));
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.messages[0]).toEqual({ role: "system", content: "Be brief." });
    expect(server.requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(["add"]);
    const toolMessage = server.requests[1]?.messages.find((message) => message.role === "tool");
    expect(toolMessage).toMatchObject({ role: "tool", tool_call_id: "call_1", content: "5" });
  });

  it("runs an approved call and tells the model about a declined one without running it", async () => {
    let writes = 0;
    const write = defineTool({
      name: "write",
      description: "Writes.",
      input: z.object({ text: z.string() }),
      execute: () => {
        writes++;
        return "written";
      },
    });
    const script: FakeScript = (request) =>
      request.messages.some((message) => message.role === "tool") ? { text: "ok" } : { toolCalls: [{ name: "write", arguments: { text: "x" }, id: "call_w" }] };
    const { agent, server } = await agentOn(script, { tools: [write], approvals: ["write"] });

    const paused = await agent.run(input("write it"), { threadId: "yes" }).outcome;
    expect(paused.status).toBe("interrupted");
    const interrupt = paused.status === "interrupted" ? paused.interrupts[0] : undefined;
    expect(interrupt).toEqual({
      id: approvalId("call_w"),
      node: "tools",
      value: { kind: "tool-approval", toolCallId: "call_w", toolName: "write", input: { text: "x" }, inputSchema: expect.objectContaining({ type: "object", required: ["text"] }) },
    });
    expect(writes).toBe(0);
    const approved = await agent.resume({ [approvalId("call_w")]: { decision: "approve" } }, { threadId: "yes" }).outcome;
    expect(approved.status).toBe("completed");
    expect(writes).toBe(1);
    expect(server.requests[1]?.messages.find((message) => message.role === "tool")?.content).toBe("written");

    await agent.run(input("write it"), { threadId: "no" }).outcome;
    const rejected = agent.resume({ [approvalId("call_w")]: { decision: "reject", reason: "not now" } }, { threadId: "no" });
    const events = await collect(rejected);
    expect((await rejected.outcome).status).toBe("completed");
    expect(writes).toBe(1);
    expect(events.find((event) => event.type === "tool-end")).toMatchObject({ status: "rejected" });
    const declined = server.requests[3]?.messages.find((message) => message.role === "tool")?.content;
    expect(declined).toContain("declined");
    expect(declined).toContain("not now");

    // A policy's rejection (a script's run, nobody asked) is told as the policy's, not the person's.
    await agent.run(input("write it"), { threadId: "policy" }).outcome;
    await agent.resume({ [approvalId("call_w")]: { decision: "reject", by: "policy", reason: "--approve reads allows reading only." } }, { threadId: "policy" }).outcome;
    expect(writes).toBe(1);
    const refused = String(server.requests[5]?.messages.find((message) => message.role === "tool")?.content);
    expect(refused).not.toContain("person declined");
    expect(refused).toContain("the run's approval policy refused it, and no person was asked. Reason: --approve reads allows reading only.");
  });

  it("puts a tool's own description of a call into its approval, asks it only while the approval is open, and leaves out one that throws", async () => {
    const described: string[] = [];
    const write = defineTool({
      name: "write",
      description: "Writes.",
      input: z.object({ path: z.string() }),
      needsApproval: true,
      describeApproval: ({ path }, { threadId, toolCallId }) => {
        described.push(`${threadId}/${toolCallId}`);
        return { title: `Write ${path} → elsewhere/${path}`, display: [{ type: "text", text: `${path} is a link.` }] };
      },
      execute: () => "written",
    });
    const broken = defineTool({
      name: "broken",
      description: "Describes badly.",
      input: z.object({}),
      needsApproval: true,
      describeApproval: () => {
        throw new Error("cannot describe");
      },
      execute: () => "ran",
    });
    const script: FakeScript = (request) =>
      request.messages.some((message) => message.role === "tool")
        ? { text: "ok" }
        : { toolCalls: [{ name: "write", arguments: { path: "notes.txt" }, id: "call_w" }, { name: "broken", arguments: {}, id: "call_b" }] };
    const { agent } = await agentOn(script, { tools: [write, broken] });

    const paused = await agent.run(input("write it"), { threadId: "described" }).outcome;
    const values = paused.status === "interrupted" ? paused.interrupts.map((interrupt) => interrupt.value) : [];
    expect(values).toEqual([
      {
        kind: "tool-approval",
        toolCallId: "call_w",
        toolName: "write",
        input: { path: "notes.txt" },
        title: "Write notes.txt → elsewhere/notes.txt",
        display: [{ type: "text", text: "notes.txt is a link." }],
        inputSchema: expect.objectContaining({ type: "object", properties: { path: { type: "string" } } }),
      },
      { kind: "tool-approval", toolCallId: "call_b", toolName: "broken", input: {}, inputSchema: expect.objectContaining({ type: "object", properties: {} }) },
    ]);
    const answers = { [approvalId("call_w")]: { decision: "approve" }, [approvalId("call_b")]: { decision: "approve" } };
    expect((await agent.resume(answers, { threadId: "described" }).outcome).status).toBe("completed");
    expect(described).toEqual(["described/call_w"]);
  });

  it("puts a tool's approval scope into its approval: the scope it gives, false for none or one that throws or is not a scope, absent for a tool without", async () => {
    const scoped = (name: string, scope: (command: string) => unknown) =>
      defineTool({
        name,
        description: "Runs.",
        input: z.object({ command: z.string() }),
        needsApproval: true,
        approvalScope: ({ command }) => scope(command) as never,
        execute: () => "ran",
      });
    const plain = defineTool({ name: "plain", description: "Runs.", input: z.object({ command: z.string() }), needsApproval: true, execute: () => "ran" });
    const tools = [
      scoped("prefix", (command) => ({ key: `prefix:${command}`, label: `\`${command} …\``, within: ["prefix:npm"] })),
      scoped("none", () => undefined),
      scoped("throws", () => {
        throw new Error("no scope");
      }),
      scoped("bad", () => ({ key: "", label: "empty" })),
      plain,
    ];
    const calls = tools.map((tool) => ({ name: tool.name, arguments: { command: "npm test" }, id: `call_${tool.name}` }));
    const { agent } = await agentOn([{ toolCalls: calls }], { tools });
    const paused = await agent.run(input("run them"), { threadId: "scoped" }).outcome;
    const scopes = paused.status === "interrupted" ? paused.interrupts.map((interrupt) => [(interrupt.value as { toolName: string }).toolName, (interrupt.value as { scope?: unknown }).scope]) : [];
    expect(scopes).toEqual([
      ["prefix", { key: "prefix:npm test", label: "`npm test …`", within: ["prefix:npm"] }],
      ["none", false],
      ["throws", false],
      ["bad", false],
      ["plain", undefined],
    ]);
  });

  it("describes an approval with the tool's title and locations when it gives no description of its own", async () => {
    const move = defineTool({
      name: "move_file",
      description: "Moves a file.",
      input: z.object({ from: z.string(), to: z.string() }),
      needsApproval: true,
      title: ({ from, to }) => `Move ${from} to ${to}`,
      locations: ({ from, to }) => [{ path: `/project/${from}` }, { path: `/project/${to}` }],
      execute: () => "moved",
    });
    const { agent } = await agentOn([{ toolCalls: [{ name: "move_file", arguments: { from: "a.txt", to: "b.txt" }, id: "call_m" }] }], { tools: [move] });
    const paused = await agent.run(input("move it"), { threadId: "t" }).outcome;
    expect(paused.status === "interrupted" && paused.interrupts[0]?.value).toMatchObject({
      title: "Move a.txt to b.txt",
      locations: [{ path: "/project/a.txt" }, { path: "/project/b.txt" }],
    });
  });

  it("runs a call with the input the person edited, tells the model so, and checks the edited input first", async () => {
    const ran: unknown[] = [];
    const write = defineTool({
      name: "write",
      description: "Writes.",
      input: z.object({ path: z.string(), text: z.string() }),
      needsApproval: true,
      execute: (written) => {
        ran.push(written);
        return `wrote ${written.text}`;
      },
    });
    const script: FakeScript = (request) =>
      request.messages.some((message) => message.role === "tool") ? { text: "ok" } : { toolCalls: [{ name: "write", arguments: { path: "a.txt", text: "draft" }, id: "call_w" }] };
    const { agent, server } = await agentOn(script, { tools: [write] });

    await agent.run(input("write it"), { threadId: "edited" }).outcome;
    const resumed = agent.resume({ [approvalId("call_w")]: { decision: "edit", input: { path: "a.txt", text: "final" } } }, { threadId: "edited" });
    const events = await collect(resumed);
    const done = await resumed.outcome;
    expect(ran).toEqual([{ path: "a.txt", text: "final" }]);
    expect(events.find((event) => event.type === "tool-start")).toMatchObject({ input: { path: "a.txt", text: "final" } });
    const result = done.status === "completed" ? (done.output.messages.find((message) => message.role === "tool") as ToolMessage | undefined)?.parts[0] : undefined;
    expect(result).toMatchObject({ output: "wrote final", editedInput: { path: "a.txt", text: "final" } });
    expect(server.requests[1]?.messages.find((message) => message.role === "tool")?.content).toBe(
      'The person edited this call\'s input before approving it; it ran with {"path":"a.txt","text":"final"}.\n\nwrote final',
    );

    await agent.run(input("write it"), { threadId: "invalid" }).outcome;
    const refused = await agent.resume({ [approvalId("call_w")]: { decision: "edit", input: { path: "a.txt" } } }, { threadId: "invalid" }).outcome;
    expect(ran).toHaveLength(1);
    const error = refused.status === "completed" ? (refused.output.messages.find((message) => message.role === "tool") as ToolMessage | undefined)?.parts[0] : undefined;
    expect(error).toMatchObject({ isError: true, editedInput: { path: "a.txt" }, output: expect.stringContaining("the edited input is not valid") });
  });

  it("gives each of two parallel calls exactly one result, running them at the same time", async () => {
    const started = { a: deferred(), b: deferred() };
    const wait = defineTool({
      name: "wait",
      description: "Waits for its sibling.",
      input: z.object({ name: z.enum(["a", "b"]) }),
      execute: async ({ name }) => {
        started[name].resolve();
        await started[name === "a" ? "b" : "a"].promise;
        return `done ${name}`;
      },
    });
    const { agent, server } = await agentOn(
      [
        {
          toolCalls: [
            { name: "wait", arguments: { name: "a" }, id: "call_a" },
            { name: "wait", arguments: { name: "b" }, id: "call_b" },
          ],
        },
        { text: "both done" },
      ],
      { tools: [wait] },
    );
    const outcome = await agent.run(input("go"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("completed");
    const results = server.requests[1]?.messages.filter((message) => message.role === "tool");
    expect(results?.map((message) => [message.tool_call_id, message.content])).toEqual([
      ["call_a", "done a"],
      ["call_b", "done b"],
    ]);
    const toolMessage = outcome.status === "completed" ? (outcome.output.messages.find((message) => message.role === "tool") as ToolMessage) : undefined;
    expect(toolMessage?.parts.map((part) => part.toolCallId)).toEqual(["call_a", "call_b"]);
  });

  it("gives a call whose id the model used before (in an earlier turn, or twice in one reply) an id of its own, so each result reaches the model", async () => {
    // Some servers number calls from call_0 in every reply; the ids the conversation keeps must still be unique.
    const { agent, server } = await agentOn(
      [
        { toolCalls: [{ id: "call_0", name: "add", arguments: { a: 1, b: 1 } }] },
        { text: "It is 2." },
        {
          toolCalls: [
            { id: "call_0", name: "add", arguments: { a: 2, b: 2 } },
            { id: "call_0", name: "add", arguments: { a: 3, b: 3 } },
          ],
        },
        { text: "They are 4 and 6." },
      ],
      { tools: [add] },
    );
    const first = await agent.run(input("1+1?"), { threadId: "t" }).outcome;
    expect(first.status).toBe("completed");
    const history = first.status === "completed" ? first.output.messages : [];
    const second = await agent.run({ messages: [...history, userMessage("2+2 and 3+3?")] }, { threadId: "t" }).outcome;
    expect(second.status).toBe("completed");
    expect(server.requests).toHaveLength(4);
    const last = server.requests[3]?.messages ?? [];
    const calls = last.flatMap((message) => (message.tool_calls ?? []).map((call) => (call as { id: string }).id));
    expect(calls).toHaveLength(3);
    expect(new Set(calls).size).toBe(3);
    expect(calls[0]).toBe("call_0");
    const results = last.filter((message) => message.role === "tool");
    expect(results.map((message) => [message.tool_call_id, message.content])).toEqual([
      ["call_0", "2"],
      [calls[1], "4"],
      [calls[2], "6"],
    ]);
  });

  it("turns a tool that throws, an unknown tool and bad arguments into error results, not a crashed run", async () => {
    const broken = defineTool({
      name: "broken",
      description: "Always fails.",
      input: z.object({}),
      execute: () => {
        throw new Error("kaboom");
      },
    });
    const { agent, server } = await agentOn(
      [
        {
          toolCalls: [
            { name: "broken", arguments: {}, id: "c1" },
            { name: "missing", arguments: {}, id: "c2" },
            { name: "add", arguments: { a: "two" }, id: "c3" },
            { name: "add", arguments: "{not json", id: "c4" },
          ],
        },
        { text: "sorry" },
      ],
      { tools: [broken, add] },
    );
    const outcome = await agent.run(input("go"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("completed");
    const results = server.requests[1]?.messages.filter((message) => message.role === "tool").map((message) => String(message.content));
    expect(results).toHaveLength(4);
    expect(results?.[0]).toContain("kaboom");
    expect(results?.[1]).toContain('no tool named "missing"');
    expect(results?.[2]).toContain("Invalid arguments");
    expect(results?.[3]).toContain("not valid JSON");
  });

  it("fails with a clear message when the model server breaks off mid-stream", async () => {
    const { agent } = await agentOn([{ text: ["a", "b", "c", "d"], failAfter: 3 }]);
    const outcome = await agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("failed");
    const error = outcome.status === "failed" ? outcome.error : undefined;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error?.message).toMatch(/^The model openai-compatible.*\/fake-model failed: its reply broke off part-way/);
  });

  it("retries a retryable server error before any output, once the server recovers", async () => {
    const { agent, server } = await agentOn([{ status: 503, error: "overloaded" }, { text: "fine now" }]);
    const outcome = await agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("completed");
    expect(server.requests).toHaveLength(2);
  });

  it("says the key was refused when the server answers 401", async () => {
    const { agent } = await agentOn([{ status: 401, error: "Incorrect API key provided" }]);
    const outcome = await agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(outcome.status === "failed" && outcome.error.message).toContain("refused the API key (HTTP 401)");
  });

  it("cancels on abort mid-stream and closes the model connection", async () => {
    const { agent, server } = await agentOn([{ text: ["one", "two", "three"], stallAfter: 3 }]);
    const controller = new AbortController();
    const run = agent.run(input("hi"), { threadId: "t", signal: controller.signal });
    for await (const event of run) {
      if (event.type === "text-delta") {
        controller.abort();
      }
    }
    expect(await run.outcome).toEqual({ status: "cancelled" });
    await expect.poll(() => server.aborted).toBe(1);
  });

  it("ends with max_tokens, refusal and max_steps where the run says so", async () => {
    const length = await agentOn([{ text: "cut", finishReason: "length" }]);
    const cut = await length.agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(cut.status === "completed" && cut.finish).toBe("max_tokens");
    const filtered = await agentOn([{ text: "", finishReason: "content_filter" }]);
    const refused = await filtered.agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(refused.status === "completed" && refused.finish).toBe("refusal");
    const looping = await agentOn(() => ({ toolCalls: [{ name: "add", arguments: { a: 1, b: 1 } }] }), { tools: [add], maxSteps: 3 });
    const stopped = await looping.agent.run(input("loop"), { threadId: "t" }).outcome;
    expect(stopped.status === "completed" && stopped.finish).toBe("max_steps");
    expect(looping.server.requests).toHaveLength(3);
  });

  it("lets a tool ask the person a question and carries on with the answer", async () => {
    const seen: unknown[] = [];
    const confirm = defineTool({
      name: "confirm",
      description: "Asks which colour.",
      input: z.object({}),
      execute: (_input, context) => {
        seen.push(context.principal?.id);
        return `colour: ${context.ask<string>("Which colour?")}`;
      },
    });
    const { agent, server } = await agentOn([{ toolCalls: [{ name: "confirm", arguments: {}, id: "q1" }] }, { text: "ok" }], { tools: [confirm] });
    const paused = await agent.run(input("paint"), { threadId: "t", principal: { id: "ann" } }).outcome;
    expect(paused.status).toBe("interrupted");
    const question = paused.status === "interrupted" ? paused.interrupts[0] : undefined;
    expect(question?.value).toEqual({ kind: "question", toolCallId: "q1", toolName: "confirm", question: "Which colour?" });
    const done = await agent.resume({ [question?.id as string]: "blue" }, { threadId: "t", principal: { id: "ann" } }).outcome;
    expect(done.status).toBe("completed");
    expect(server.requests[1]?.messages.find((message) => message.role === "tool")?.content).toBe("colour: blue");
    expect(seen).toEqual(["ann", "ann"]);
  });

  it("keeps the schema a tool gives its question's answer on the interrupt", async () => {
    const schema = { type: "object", properties: { colour: { type: "string" } } };
    const pick = defineTool({
      name: "pick",
      description: "Asks for a colour.",
      input: z.object({}),
      execute: (_input, context) => JSON.stringify(context.ask({ question: "Which colour?" }, { schema })),
    });
    const { agent, server } = await agentOn([{ toolCalls: [{ name: "pick", arguments: {}, id: "q1" }] }, { text: "ok" }], { tools: [pick] });
    const paused = await agent.run(input("paint"), { threadId: "t" }).outcome;
    const question = paused.status === "interrupted" ? paused.interrupts[0] : undefined;
    expect(question).toEqual({ id: "ask:q1:0", node: "tools", value: { kind: "question", toolCallId: "q1", toolName: "pick", question: { question: "Which colour?" } }, schema });
    await agent.resume({ "ask:q1:0": { action: "accept", content: { colour: "red" } } }, { threadId: "t" }).outcome;
    expect(server.requests[1]?.messages.find((message) => message.role === "tool")?.content).toBe('{"action":"accept","content":{"colour":"red"}}');
  });
});

describe("createAgent with a run's config", () => {
  it("chooses the model for each call from the config, so a change made mid-run reaches the next request", async () => {
    const server = await FakeModelServer.start([{ toolCalls: [{ name: "upgrade", arguments: {} }] }, { text: "smarter now" }]);
    servers.push(server);
    const models = {
      fast: await resolveModel("openai-compatible:fast-model", { baseURL: server.url }),
      smart: await resolveModel("openai-compatible:smart-model", { baseURL: server.url }),
    };
    let picked: keyof typeof models = "fast";
    const upgrade = defineTool({
      name: "upgrade",
      description: "Switches to the smart model.",
      input: z.object({}),
      execute: () => {
        picked = "smart";
        return "switched";
      },
    });
    const agent = createAgent({ model: ({ config }) => models[config.model as keyof typeof models], tools: [upgrade] });
    const outcome = await agent.run(input("think harder"), { threadId: "t", config: () => ({ model: picked }) }).outcome;
    expect(outcome.status).toBe("completed");
    expect(server.requests.map((request) => request.model)).toEqual(["fast-model", "smart-model"]);
  });

  it("asks a providerOptions function before each model call, so a reasoning effort picked mid-run reaches the next request", async () => {
    const { agent, server } = await agentOn([{ toolCalls: [{ name: "nothing", arguments: {} }] }, { text: "done" }], {
      providerOptions: ({ config }) => (config.effort ? { openaiCompatible: { reasoningEffort: String(config.effort) } } : undefined),
    });
    let effort: string | undefined;
    const outcome = await agent.run(input("think"), {
      threadId: "t",
      config: () => {
        const config = effort ? { effort } : {};
        effort = "high";
        return config;
      },
    }).outcome;
    expect(outcome.status).toBe("completed");
    expect(server.requests[0]).not.toHaveProperty("reasoning_effort");
    expect(server.requests[1]).toMatchObject({ reasoning_effort: "high" });
  });

  it("hands the config to the instructions, the tools list, the approval policy and each tool", async () => {
    const seen: unknown[] = [];
    const look = defineTool({
      name: "look",
      description: "Looks around.",
      input: z.object({}),
      execute: (_input, context) => {
        seen.push(["tool", context.config.mode]);
        return "nothing";
      },
    });
    const { agent, server } = await agentOn([{ toolCalls: [{ name: "look", arguments: {} }] }, { text: "done" }, { toolCalls: [{ name: "look", arguments: {} }] }], {
      instructions: ({ config }) => `You are in ${String(config.mode)} mode.`,
      tools: ({ config }) => {
        seen.push(["tools", config.mode]);
        return [look];
      },
      approvals: ({ config }) => config.mode === "ask",
    });
    const outcome = await agent.run(input("look"), { threadId: "t", config: { mode: "code" } }).outcome;
    expect(outcome.status).toBe("completed");
    expect(server.requests[0]?.messages[0]).toMatchObject({ role: "system", content: "You are in code mode." });
    expect(seen).toContainEqual(["tools", "code"]);
    expect(seen).toContainEqual(["tool", "code"]);

    const asking = await agent.run(input("look"), { threadId: "u", config: { mode: "ask" } }).outcome;
    expect(asking.status).toBe("interrupted");
  });
});

describe("createAgent when the model misbehaves", () => {
  it("stops a call to a server that never answers after the idle timeout, and a cancel before then still cancels", { timeout: 10_000 }, async () => {
    const { agent, server } = await agentOn([{ neverAnswer: true }, { neverAnswer: true }], { modelIdleTimeoutMs: 500 });
    const controller = new AbortController();
    const cancelled = agent.run(input("hi"), { threadId: "t1", signal: controller.signal });
    await expect.poll(() => server.requests.length).toBe(1);
    controller.abort();
    expect(await cancelled.outcome).toEqual({ status: "cancelled" });
    await expect.poll(() => server.aborted).toBe(1);

    const outcome = await agent.run(input("hi"), { threadId: "t2" }).outcome;
    expect(outcome.status).toBe("failed");
    const error = outcome.status === "failed" ? outcome.error : undefined;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ idleMs: 500 });
    expect(error?.message).toMatch(/^The model openai-compatible.*\/fake-model sent nothing for 0\.5 s; weft stopped waiting\./);
    // Not retried: a second wait as long would only wedge the session longer.
    expect(server.requests).toHaveLength(2);
    await expect.poll(() => server.aborted).toBe(2);
  });

  it("stops a reply that stalls part-way after the idle timeout, counting from the last part", async () => {
    const chunks = Array.from({ length: 8 }, (_, index) => `${index} `);
    // 100 ms between chunks: the text takes longer than the timeout, and no gap comes near it.
    // Then the stream stalls before its finish chunk (chunk 0 is the role, 1 to 8 the text).
    const { agent, server } = await agentOn([{ text: chunks, chunkDelayMs: 100, stallAfter: 9 }], { modelIdleTimeoutMs: 500 });
    const run = agent.run(input("hi"), { threadId: "t" });
    const events = await collect(run);
    expect(events.flatMap((event) => (event.type === "text-delta" ? [event.delta] : [])).join("")).toBe(chunks.join(""));
    const outcome = await run.outcome;
    expect(outcome.status === "failed" && outcome.error.message).toMatch(/sent nothing for 0\.5 s, part-way through its reply; weft stopped waiting/);
    await expect.poll(() => server.aborted).toBe(1);
  });

  it("refuses an idle timeout that is not a positive number", async () => {
    await expect(agentOn([], { modelIdleTimeoutMs: 0 })).rejects.toMatchObject({ code: "invalid_option" });
    await expect(agentOn([], { modelIdleTimeoutMs: Number.NaN })).rejects.toMatchObject({ code: "invalid_option" });
  });

  it("waits at least as long as retry-after-ms and retry-after ask before retrying", async () => {
    const { agent, server } = await agentOn([
      { status: 429, error: "slow down", headers: { "retry-after-ms": "600" } },
      { status: 503, error: "busy", headers: { "retry-after": "1" } },
      { text: "fine now" },
    ]);
    const outcome = await agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("completed");
    const [first, second, third] = server.requestTimes as [number, number, number];
    expect(server.requestTimes).toHaveLength(3);
    expect(second - first).toBeGreaterThanOrEqual(600);
    expect(third - second).toBeGreaterThanOrEqual(1000);
  });

  it("fails at once, saying how long the provider asked to wait, when that is longer than weft waits", async () => {
    const { agent, server } = await agentOn([{ status: 429, error: "Rate limit reached", headers: { "retry-after": "120" } }, { text: "too soon" }]);
    const outcome = await agent.run(input("hi"), { threadId: "t" }).outcome;
    expect(outcome.status).toBe("failed");
    const error = outcome.status === "failed" ? outcome.error : undefined;
    expect(error).toMatchObject({ statusCode: 429, retryAfterMs: 120_000 });
    expect(error?.message).toContain("HTTP 429: Rate limit reached. The provider asked to wait 120 s before trying again, longer than the 30 s weft waits; try again later.");
    expect(server.requests).toHaveLength(1);
  });

  it("keeps an empty reply as a note, so the next request holds no empty assistant message", async () => {
    const { agent, server } = await agentOn([{ text: "" }, { text: "  \n" }, { text: "here" }]);
    const first = agent.run(input("hi"), { threadId: "t" });
    const deltas = (await collect(first)).flatMap((event) => (event.type === "text-delta" ? [event.delta] : []));
    expect(deltas).toEqual([EMPTY_REPLY_NOTE]);
    const one = await first.outcome;
    expect(one.status === "completed" && one.output.messages.at(-1)).toMatchObject({ role: "assistant", parts: [{ type: "text", text: EMPTY_REPLY_NOTE }] });
    const history = one.status === "completed" ? one.output.messages : [];
    const two = await agent.run({ messages: [...history, userMessage("again")] }, { threadId: "t2" }).outcome;
    expect(two.status === "completed" && two.output.messages.at(-1)?.parts).toEqual([{ type: "text", text: EMPTY_REPLY_NOTE }]);
    const all = two.status === "completed" ? two.output.messages : [];
    expect((await agent.run({ messages: [...all, userMessage("once more")] }, { threadId: "t3" }).outcome).status).toBe("completed");
    const assistants = server.requests[2]?.messages.filter((message) => message.role === "assistant");
    expect(assistants?.map((message) => message.content)).toEqual([EMPTY_REPLY_NOTE, EMPTY_REPLY_NOTE]);
  });
});
