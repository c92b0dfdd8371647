// One session's config values: what the runs see, what new/load/resume answer, and how each of the
// three ways of changing them writes the record and tells the editor (the mode both ways); a change
// the store cannot take leaves the values as they were; the values survive a shared store.

import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";

import { modelPicker } from "../../../test/support/declared-options.js";
import { MemoryStore } from "../../store-core/memory-store.js";
import { silentLogger } from "../../types/logger.js";
import { type AcpConfigOption, ConfigOptions } from "./config-options.js";
import type { AcpModes } from "./modes.js";
import { SessionConfig } from "./session-config.js";
import { type AcpSessionRecord, type AcpSessionStore, MemoryAcpSessionStore } from "../record/session-store.js";
import { storeAcpSessions } from "../record/store-sessions.js";
import { HeldUpdates } from "../session/held-updates.js";
import { StoredSession } from "../session/stored-session.js";
import { UpdateSink } from "../session/update-sink.js";

const model = modelPicker([
  { value: "fast", name: "Fast" },
  { value: "smart", name: "Smart" },
]);
const concise: AcpConfigOption = { type: "boolean", id: "concise", name: "Concise", default: false };
const modes: AcpModes = { default: "ask", available: [{ id: "ask", name: "Ask" }, { id: "code", name: "Code" }] };
const options = new ConfigOptions([model, concise], modes);

function newRecord(config?: AcpSessionRecord["config"]): AcpSessionRecord {
  const record: AcpSessionRecord = { info: { id: "sess_1", cwd: "/project", mcpServers: [] }, history: [], always: [], updatedAt: "2025-01-01T00:00:00.000Z" };
  if (config) {
    record.config = config;
  }
  return record;
}

function sessionConfig(setup: { store?: AcpSessionStore; record?: AcpSessionRecord; booleans?: boolean } = {}) {
  const store = setup.store ?? new MemoryAcpSessionStore();
  const updates: SessionUpdate[] = [];
  const session = new StoredSession(store, setup.record ?? newRecord(options.defaults()), silentLogger);
  const sink = new UpdateSink("sess_1", async (notification) => void updates.push(notification.update), silentLogger);
  const held = new HeldUpdates(sink);
  const config = new SessionConfig(options, session, held, () => setup.booleans ?? true);
  const flushed = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await held.flush();
    return updates;
  };
  return { store, session, config, held, updates, flushed };
}

const currentValues = (list: Array<{ id: string; currentValue: unknown }>) => Object.fromEntries(list.map((option) => [option.id, option.currentValue]));

describe("SessionConfig", () => {
  it("gives the runs every value, the defaults for a record that has none", () => {
    expect(sessionConfig().config.values()).toEqual({ mode: "ask", model: "fast", concise: false });
    expect(sessionConfig({ record: newRecord() }).config.values()).toEqual({ mode: "ask", model: "fast", concise: false });
  });

  it("announces the option list and the legacy modes, booleans only when the editor shows them", () => {
    const { config } = sessionConfig({ booleans: false });
    const announced = config.announce();
    expect(announced.configOptions?.map((option) => option.id)).toEqual(["mode", "model"]);
    expect(announced.modes).toEqual({ currentModeId: "ask", availableModes: [{ id: "ask", name: "Ask" }, { id: "code", name: "Code" }] });
    expect(sessionConfig({ booleans: true }).config.announce().configOptions?.map((option) => option.id)).toEqual(["mode", "model", "concise"]);
  });

  it("announces nothing when the agent offers neither options nor modes", () => {
    const session = new StoredSession(new MemoryAcpSessionStore(), newRecord(), silentLogger);
    const config = new SessionConfig(new ConfigOptions(), session, new HeldUpdates(new UpdateSink("sess_1", async () => undefined, silentLogger)), () => true);
    expect(config.announce()).toEqual({});
    expect(config.values()).toEqual({});
  });

  it("set_config_option: writes the value before answering the full list, and sends no update of the list the editor just got", async () => {
    const { config, store, flushed } = sessionConfig();
    const list = await config.setOption("model", "smart");
    expect(currentValues(list)).toEqual({ mode: "ask", model: "smart", concise: false });
    expect((await store.get("sess_1"))?.config).toEqual({ mode: "ask", model: "smart", concise: false });
    expect(config.values().model).toBe("smart");
    expect(await flushed()).toEqual([]);
  });

  it("set_config_option of the mode also sends current_mode_update, for editors that read modes", async () => {
    const { config, flushed } = sessionConfig();
    expect(currentValues(await config.setOption("mode", "code")).mode).toBe("code");
    expect(config.announce().modes?.currentModeId).toBe("code");
    expect(await flushed()).toEqual([{ sessionUpdate: "current_mode_update", currentModeId: "code" }]);
  });

  it("set_mode changes the mode option too, and sends it as config_option_update with the full list", async () => {
    const { config, flushed } = sessionConfig();
    await config.setMode("code");
    expect(config.values().mode).toBe("code");
    const updates = await flushed();
    expect(updates).toHaveLength(1);
    const update = updates[0];
    expect(update?.sessionUpdate === "config_option_update" && currentValues(update.configOptions)).toEqual({ mode: "code", model: "fast", concise: false });
  });

  it("sends nothing for a value that is already the session's", async () => {
    const { config, flushed } = sessionConfig();
    await config.setMode("ask");
    await config.setOption("mode", "ask");
    await config.change({ model: "fast" });
    expect(await flushed()).toEqual([]);
  });

  it("the agent's own change: all values checked first, then config_option_update with the full list and current_mode_update", async () => {
    const { config, flushed } = sessionConfig();
    await expect(config.change({ model: "smart", mode: "plan" })).rejects.toThrow('Config option "mode" has no value "plan"; its values are ask, code.');
    expect(config.values()).toEqual({ mode: "ask", model: "fast", concise: false });
    await config.change({ model: "smart", mode: "code" });
    const updates = await flushed();
    expect(updates.map((update) => update.sessionUpdate)).toEqual(["config_option_update", "current_mode_update"]);
    const listed = updates[0];
    expect(listed?.sessionUpdate === "config_option_update" && currentValues(listed.configOptions)).toEqual({ mode: "code", model: "smart", concise: false });
  });

  it("the agent may change a boolean the editor does not show; the editor is not told of it", async () => {
    const { config, flushed } = sessionConfig({ booleans: false });
    await config.change({ concise: true });
    expect(config.values().concise).toBe(true);
    expect(await flushed()).toEqual([]);
  });

  it("refuses a boolean the editor does not show when the editor sets it", async () => {
    const { config } = sessionConfig({ booleans: false });
    await expect(config.setOption("concise", true)).rejects.toThrow('This session has no config option "concise"; its options are mode, model.');
  });

  it("holds the updates of changes back until the session/new answer is written", async () => {
    const { config, held, updates } = sessionConfig();
    let written!: () => void;
    held.holdUntil(new Promise<void>((resolve) => (written = resolve)));
    await config.change({ mode: "code" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(updates).toEqual([]);
    written();
    await new Promise((resolve) => setImmediate(resolve));
    expect(updates.map((update) => update.sessionUpdate)).toEqual(["config_option_update", "current_mode_update"]);
  });

  it("leaves the values as they were when the store cannot take the change, and says the store is unavailable", async () => {
    const inner = new MemoryAcpSessionStore();
    let down = false;
    const store: AcpSessionStore = {
      get: (sessionId) => inner.get(sessionId),
      put: (record) => {
        if (down) {
          throw new Error("disk full");
        }
        inner.put(record);
      },
    };
    const { config, flushed } = sessionConfig({ store });
    down = true;
    await expect(config.setOption("model", "smart")).rejects.toMatchObject({ code: "store_unavailable", message: "The session store is unavailable: disk full" });
    expect(config.values().model).toBe("fast");
    expect(await flushed()).toEqual([]);
  });

  it("keeps the values in a shared store, for the next process that opens the session", async () => {
    const shared = new MemoryStore();
    const first = sessionConfig({ store: storeAcpSessions(shared) });
    await first.config.setOption("model", "smart");
    await first.config.setMode("code");
    const read = await storeAcpSessions(shared).get("sess_1");
    expect(read?.config).toEqual({ mode: "code", model: "smart", concise: false });
  });
});
