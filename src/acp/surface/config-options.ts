// A session's config options (the model, the reasoning effort, the agent's own switches): how the
// integrator declares them, how a value is checked, and how they look on the wire. Modes
// (modes.ts) come first in the list, as the option of category "mode". A session's values are
// plain data in its record; session-config.ts keeps them for an open session.

import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";

import { WeftError } from "../../errors/weft-error.js";
import { type AcpModes, MODE_OPTION_ID, modeOption, modeState } from "./modes.js";
import { InvalidConfigValueError } from "../errors/request-errors.js";
import type { AcpConfigValues } from "../record/config-values.js";

/**
 * What an option is about, for the editor to place it (a model picker, an effort slider): `model`,
 * `model_config` (such as the context size), `thought_level`, or a name of your own starting
 * with `_`. Editors must work without it. The mode has its own category and is declared with
 * AcpOptions.modes.
 */
export type AcpConfigCategory = "model" | "model_config" | "thought_level" | `_${string}`;

/** One value of a select option. */
export interface AcpConfigChoice {
  /** What the run sees as the option's value. */
  value: string;
  /** What the editor shows. */
  name: string;
  description?: string | undefined;
}

/** Values of a select option shown under one heading (by provider, say). */
export interface AcpConfigChoiceGroup {
  /** The group's id. */
  group: string;
  /** Its heading. */
  name: string;
  options: readonly AcpConfigChoice[];
}

/** What every config option declares. */
interface AcpConfigOptionBase {
  /** The option's id: the key the run reads its value under (`config.model`). */
  id: string;
  /** Its label in the editor. */
  name: string;
  description?: string | undefined;
  category?: AcpConfigCategory | undefined;
  /**
   * Offered only while this holds of the session's values, such as a thought level only while a
   * model that reasons is picked. The option's value is kept meanwhile, and the editor sees the
   * list change in the answer to the change that hides or shows it.
   */
  when?: ((values: Readonly<AcpConfigValues>) => boolean) | undefined;
}

/** An option with one value out of a list, flat or in groups. */
export interface AcpSelectConfigOption extends AcpConfigOptionBase {
  type: "select";
  options: readonly AcpConfigChoice[] | readonly AcpConfigChoiceGroup[];
  /** The value a new session starts with. */
  default: string;
}

/** An on/off switch. Offered only to editors that say they show them; the others' sessions keep its default. */
export interface AcpBooleanConfigOption extends AcpConfigOptionBase {
  type: "boolean";
  /** The value a new session starts with. */
  default: boolean;
}

/** A session config option, as an integrator declares it in AcpOptions.configOptions. */
export type AcpConfigOption = AcpSelectConfigOption | AcpBooleanConfigOption;

export type { AcpConfigValues } from "../record/config-values.js";

const CATEGORIES: readonly string[] = ["model", "model_config", "thought_level"];
/** The most values an error message lists. */
const LISTED = 10;

/** An option's id, type and values, as checks need them. */
type Known = { id: string; type: "select"; values: readonly string[]; fallback: string } | { id: string; type: "boolean"; fallback: boolean };

/**
 * The config options and modes a server offers, checked once when the server starts: what a new
 * session starts with, what a stored session's values mean now, whether a value may be set, and
 * the wire list for a session's values.
 */
export class ConfigOptions {
  private readonly known = new Map<string, Known>();

  /** Throws a WeftError (`invalid_option`) that says what is wrong with a declaration. */
  constructor(
    private readonly declared: readonly AcpConfigOption[] = [],
    /** The modes, if the agent has them. */
    readonly modes?: AcpModes | undefined,
  ) {
    if (modes) {
      this.add(checkModes(modes));
    }
    for (const option of declared) {
      this.add(checkOption(option));
    }
  }

  /** Whether there is anything to offer: an option or modes. */
  get offered(): boolean {
    return this.known.size > 0;
  }

  /** The values a new session starts with. */
  defaults(): AcpConfigValues {
    return this.resolve(undefined);
  }

  /**
   * The values a session has, from what its record keeps: each value kept that the option still
   * offers, the default for the others (an option added since, a value since removed), and no
   * option that is no longer declared.
   */
  resolve(stored: Readonly<AcpConfigValues> | undefined): AcpConfigValues {
    const values: AcpConfigValues = {};
    for (const option of this.known.values()) {
      const value = stored?.[option.id];
      values[option.id] = value !== undefined && problem(option, value) === undefined ? value : option.fallback;
    }
    return values;
  }

  /**
   * Checks that `configId` may be set to `value`; throws InvalidConfigValueError saying why not.
   * `booleans`: whether the one asking sees boolean options (an editor that does not show them
   * was never offered them, so for it they do not exist). `values`: the session's values, for an
   * option offered only `when` they allow it; without them every option may be set.
   */
  check(configId: string, value: string | boolean, booleans: boolean, values?: Readonly<AcpConfigValues>): void {
    const option = this.known.get(configId);
    const hidden = values !== undefined && this.declared.some((declared) => declared.id === configId && declared.when && !declared.when(values));
    if (!option || (option.type === "boolean" && !booleans) || hidden) {
      const ids = [...this.known.values()].filter((known) => known.type === "select" || booleans).map((known) => known.id);
      throw new InvalidConfigValueError(configId, value, `This session has no config option ${JSON.stringify(configId)}; its options are ${listed(ids)}.`);
    }
    const wrong = problem(option, value);
    if (wrong) {
      throw new InvalidConfigValueError(configId, value, wrong);
    }
  }

  /** Checks that `modeId` is one of the modes; throws InvalidConfigValueError (for the `mode` option) saying why not. */
  checkMode(modeId: string): void {
    const modes = this.modes;
    if (!modes) {
      throw new InvalidConfigValueError(MODE_OPTION_ID, modeId, "This agent has no modes.");
    }
    if (!modes.available.some((mode) => mode.id === modeId)) {
      throw new InvalidConfigValueError(MODE_OPTION_ID, modeId, `There is no mode ${JSON.stringify(modeId)}; the modes are ${listed(modes.available.map((mode) => mode.id))}.`);
    }
  }

  /** The full list of options as ACP sends it, with `values` current; booleans only when the editor shows them. */
  toWire(values: Readonly<AcpConfigValues>, booleans: boolean): SessionConfigOption[] {
    const list: SessionConfigOption[] = [];
    if (this.modes) {
      list.push(modeOption(this.modes, String(values[MODE_OPTION_ID])));
    }
    for (const option of this.declared) {
      if ((option.type === "boolean" && !booleans) || (option.when && !option.when(values))) {
        continue;
      }
      list.push(wireOption(option, values[option.id]));
    }
    return list;
  }

  /** The modes as the legacy SessionModeState, with the session's mode current; undefined without modes. */
  modeState(values: Readonly<AcpConfigValues>): SessionModeState | undefined {
    return this.modes && modeState(this.modes, String(values[MODE_OPTION_ID]));
  }

  private add(option: Known): void {
    if (this.known.has(option.id)) {
      throw new WeftError("invalid_option", `Config option ids must be unique: ${JSON.stringify(option.id)} is declared twice.`);
    }
    this.known.set(option.id, option);
  }
}

/** Why `value` cannot be the option's, in words for the person who sent it; undefined when it can. */
function problem(option: Known, value: string | boolean): string | undefined {
  const id = JSON.stringify(option.id);
  if (option.type === "boolean") {
    return typeof value === "boolean" ? undefined : `Config option ${id} is a boolean option: set it with type "boolean" and true or false, not ${JSON.stringify(value)}.`;
  }
  if (typeof value !== "string") {
    return `Config option ${id} is a select option: set it to one of its values (${listed(option.values)}), not to ${String(value)}.`;
  }
  return option.values.includes(value) ? undefined : `Config option ${id} has no value ${JSON.stringify(value)}; its values are ${listed(option.values)}.`;
}

function listed(items: readonly string[]): string {
  if (items.length === 0) {
    return "none";
  }
  const shown = items.slice(0, LISTED).join(", ");
  return items.length > LISTED ? `${shown} and ${items.length - LISTED} more` : shown;
}

function checkModes(modes: AcpModes): Known {
  if (modes.available.length === 0) {
    throw new WeftError("invalid_option", "modes.available is empty; declare at least one mode, or no modes.");
  }
  const ids = modes.available.map((mode) => mode.id);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice !== undefined) {
    throw new WeftError("invalid_option", `Mode ids must be unique: ${JSON.stringify(twice)} is declared twice.`);
  }
  if (!ids.includes(modes.default)) {
    throw new WeftError("invalid_option", `modes.default is ${JSON.stringify(modes.default)}, which is not one of the modes (${listed(ids)}).`);
  }
  return { id: MODE_OPTION_ID, type: "select", values: ids, fallback: modes.default };
}

function checkOption(option: AcpConfigOption): Known {
  const id = JSON.stringify(option.id);
  if (typeof option.id !== "string" || option.id === "") {
    throw new WeftError("invalid_option", "A config option has an empty id.");
  }
  if (option.id === MODE_OPTION_ID || (option.category as string | undefined) === "mode") {
    throw new WeftError("invalid_option", `Config option ${id} would be the mode; declare modes with serveAcp's \`modes\` option, which offers them both ways.`);
  }
  if (option.category !== undefined && !CATEGORIES.includes(option.category) && !option.category.startsWith("_")) {
    throw new WeftError("invalid_option", `Config option ${id} has category ${JSON.stringify(option.category)}; use ${CATEGORIES.join(", ")}, or a name of your own starting with "_".`);
  }
  if (option.type === "boolean") {
    if (typeof option.default !== "boolean") {
      throw new WeftError("invalid_option", `Config option ${id} is a boolean option; its default must be true or false.`);
    }
    return { id: option.id, type: "boolean", fallback: option.default };
  }
  if (option.type !== "select") {
    throw new WeftError("invalid_option", `Config option ${id} has type ${JSON.stringify((option as { type?: unknown }).type)}; use "select" or "boolean".`);
  }
  const entries: readonly (AcpConfigChoice | AcpConfigChoiceGroup)[] = option.options;
  const grouped = entries.filter((entry) => "group" in entry).length;
  if (grouped !== 0 && grouped !== entries.length) {
    throw new WeftError("invalid_option", `Config option ${id} mixes values and groups; give either values or groups of them.`);
  }
  const values = entries.flatMap((entry) => ("group" in entry ? entry.options : [entry])).map((choice) => choice.value);
  if (values.length === 0) {
    throw new WeftError("invalid_option", `Config option ${id} has no values to choose from.`);
  }
  const twice = values.find((value, index) => values.indexOf(value) !== index);
  if (twice !== undefined) {
    throw new WeftError("invalid_option", `Config option ${id} has the value ${JSON.stringify(twice)} twice.`);
  }
  if (!values.includes(option.default)) {
    throw new WeftError("invalid_option", `Config option ${id} defaults to ${JSON.stringify(option.default)}, which is not one of its values (${listed(values)}).`);
  }
  return { id: option.id, type: "select", values, fallback: option.default };
}

/** A declared option as ACP sends it, with `value` current. */
function wireOption(option: AcpConfigOption, value: string | boolean | undefined): SessionConfigOption {
  const wire: SessionConfigOption =
    option.type === "boolean"
      ? { type: "boolean", id: option.id, name: option.name, currentValue: value === undefined ? option.default : Boolean(value) }
      : { type: "select", id: option.id, name: option.name, currentValue: typeof value === "string" ? value : option.default, options: wireChoices(option.options) };
  if (option.description !== undefined) {
    wire.description = option.description;
  }
  if (option.category !== undefined) {
    wire.category = option.category;
  }
  return wire;
}

function wireChoices(options: AcpSelectConfigOption["options"]): Extract<SessionConfigOption, { type: "select" }>["options"] {
  const entries: readonly (AcpConfigChoice | AcpConfigChoiceGroup)[] = options;
  const choice = (entry: AcpConfigChoice) => (entry.description === undefined ? { value: entry.value, name: entry.name } : { value: entry.value, name: entry.name, description: entry.description });
  if (entries.some((entry) => "group" in entry)) {
    return (entries as readonly AcpConfigChoiceGroup[]).map((group) => ({ group: group.group, name: group.name, options: group.options.map(choice) }));
  }
  return (entries as readonly AcpConfigChoice[]).map(choice);
}
