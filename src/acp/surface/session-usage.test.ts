// One session's usage: what each model call sends (never more used than the window), the cost
// kept in the record, what is sent after new, load and resume, a model switch that changes the
// window, and an integrator function that fails.

import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { modelPicker } from "../../../test/support/declared-options.js";
import type { RunEvent } from "../../graph/events.js";
import type { Logger } from "../../types/logger.js";
import { ConfigOptions } from "./config-options.js";
import { HeldUpdates } from "../session/held-updates.js";
import { SessionConfig } from "./session-config.js";
import { type AcpSessionRecord, MemoryAcpSessionStore } from "../record/session-store.js";
import { SessionUsage } from "./session-usage.js";
import { StoredSession } from "../session/stored-session.js";
import { UpdateSink } from "../session/update-sink.js";
import type { AcpUsageOptions } from "./usage.js";

const models = new ConfigOptions([
  modelPicker(
    [
      { value: "big", name: "Big" },
      { value: "small", name: "Small" },
      { value: "unknown", name: "Unknown" },
    ],
    { default: "big", category: undefined },
  ),
]);
const windows: Record<string, number> = { big: 200_000, small: 1_000 };
const options: AcpUsageOptions = {
  contextWindow: (config) => windows[String(config.model)],
  prices: { currency: "USD", inputPerMillion: 2, outputPerMillion: 8 },
};

function sessionUsage(usageOptions: AcpUsageOptions | undefined, record: Partial<AcpSessionRecord> = {}) {
  const full: AcpSessionRecord = { info: { id: "sess_1", cwd: "/project", mcpServers: [] }, history: [], always: [], updatedAt: "2025-01-01T00:00:00.000Z", config: models.defaults(), ...record };
  const warnings: string[] = [];
  const logger: Logger = { debug: () => undefined, info: () => undefined, warn: (message) => void warnings.push(message), error: () => undefined };
  const updates: SessionUpdate[] = [];
  const sink = new UpdateSink("sess_1", async (notification) => void updates.push(notification.update), logger);
  const store = new MemoryAcpSessionStore();
  const session = new StoredSession(store, full, logger);
  const held = new HeldUpdates(sink);
  const config = new SessionConfig(models, session, held, () => true);
  const usage = new SessionUsage(usageOptions, session, config, held, logger);
  config.onChange(() => usage.configChanged());
  const sent = async () => {
    await held.flush();
    return updates.filter((update) => update.sessionUpdate === "usage_update");
  };
  return { usage, config, session, store, warnings, sent };
}

const call = (inputTokens: number, outputTokens: number): RunEvent => ({ type: "message-end", messageId: "m1", finishReason: "stop", usage: { inputTokens, outputTokens } });

describe("SessionUsage", () => {
  it("sends the tokens in the context and the cost so far after each model call, and keeps both in the record", async () => {
    const { usage, session, sent } = sessionUsage(options);
    usage.observe(call(1000, 200));
    usage.observe({ type: "text-delta", messageId: "m2", delta: "ignored" });
    usage.observe({ type: "message-end", messageId: "m2", finishReason: "stop" });
    usage.observe(call(1300, 100));
    expect(await sent()).toEqual([
      { sessionUpdate: "usage_update", used: 1200, size: 200_000, cost: { amount: 0.0036, currency: "USD" } },
      { sessionUpdate: "usage_update", used: 1400, size: 200_000, cost: { amount: 0.0070, currency: "USD" } },
    ]);
    expect(session.record.usage).toEqual({ used: 1400, cost: { amount: 0.007, currency: "USD" } });
  });

  it("never sends more used than the window: after a switch to a smaller model the window shows full", async () => {
    const { usage, config, sent } = sessionUsage(options);
    usage.observe(call(5000, 500));
    await config.change({ model: "small" });
    usage.observe(call(6000, 10));
    const updates = await sent();
    expect(updates.map((update) => update.sessionUpdate === "usage_update" && [update.used, update.size])).toEqual([
      [5500, 200_000],
      [1000, 1_000],
      [1000, 1_000],
    ]);
  });

  it("sends nothing for a model whose window is not known, and again once the model has one", async () => {
    const { usage, config, session, sent } = sessionUsage(options, { config: { model: "unknown" } });
    usage.announce();
    usage.observe(call(100, 10));
    expect(await sent()).toEqual([]);
    // The cost is still counted.
    expect(session.record.usage).toEqual({ used: 110, cost: { amount: 0.00028, currency: "USD" } });
    await config.change({ model: "big" });
    expect(await sent()).toEqual([{ sessionUpdate: "usage_update", used: 110, size: 200_000, cost: { amount: 0.00028, currency: "USD" } }]);
  });

  it("after an answer: nothing used for a new session, what the record keeps for a loaded one, nothing for a conversation from before usage was counted", async () => {
    const fresh = sessionUsage(options);
    fresh.usage.announce();
    expect(await fresh.sent()).toEqual([{ sessionUpdate: "usage_update", used: 0, size: 200_000 }]);
    const kept = sessionUsage(options, { usage: { used: 4321, cost: { amount: 1.5, currency: "USD" } }, history: [{ id: "u1", role: "user", parts: [] }] });
    kept.usage.announce();
    expect(await kept.sent()).toEqual([{ sessionUpdate: "usage_update", used: 4321, size: 200_000, cost: { amount: 1.5, currency: "USD" } }]);
    const old = sessionUsage(options, { history: [{ id: "u1", role: "user", parts: [] }] });
    old.usage.announce();
    await old.config.change({ model: "small" });
    expect(await old.sent()).toEqual([]);
  });

  it("counts and sends nothing without usage options", async () => {
    const { usage, session, sent } = sessionUsage(undefined);
    usage.announce();
    usage.observe(call(100, 10));
    expect(await sent()).toEqual([]);
    expect(session.record.usage).toBeUndefined();
  });

  it("takes a window or prices function that throws as not known, and says so", async () => {
    const { usage, warnings, sent } = sessionUsage({
      contextWindow: () => {
        throw new Error("no table");
      },
      prices: () => {
        throw new Error("no prices");
      },
    });
    usage.observe(call(100, 10));
    expect(await sent()).toEqual([]);
    expect(warnings).toEqual(["usage.prices failed; the session's usage is shown without it", "usage.contextWindow failed; the session's usage is shown without it"]);
  });
});
