// Hostile input for an ACP agent: lines a broken or malicious editor could write, from a seeded
// generator (the same seed gives the same lines, so a failure replays), and what JSON-RPC and ACP's
// framing say the agent must do with each line: answer it once, with its id or with `id: null`, or
// not at all. Kept apart from any one test, so that a conformance kit can reuse it on any agent.

/** A JSON-RPC id: what an answer carries. */
export type AnswerId = string | number | null;

export interface HostileLine {
  /** The text written; a `\n` inside it splits it into several lines, as it would on the wire. */
  text: string;
  /** What the line is meant to try, for failure reports. */
  kind: string;
}

export interface HostileOptions {
  seed: number;
  count: number;
  /** An absolute directory that may be given as a session's cwd. */
  cwd: string;
  /** The nesting the agent refuses (lines are made just under and well over it). Default 128. */
  maxDepth?: number;
}

/**
 * What the agent must answer to `text`, line by line: one answer with the given id for each entry.
 * A request (a `"jsonrpc": "2.0"` object with a string `method` and an `id` that is a string, an
 * integer or null, as ACP allows) is answered with its id; a notification or an answer is not answered; a
 * blank line is ignored; anything else (not JSON, an array, a scalar, a broken envelope) gets one
 * error with `id: null`. A line is read as the agent's SDK reads it: as UTF-8, trimmed.
 */
export function expectedAnswers(text: string): AnswerId[] {
  const answers: AnswerId[] = [];
  for (const segment of text.split("\n")) {
    const line = new TextDecoder().decode(new TextEncoder().encode(segment)).trim();
    if (!line) {
      continue;
    }
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      answers.push(null);
      continue;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      answers.push(null);
      continue;
    }
    const record = message as Record<string, unknown>;
    const envelope = record.jsonrpc === "2.0" && typeof record.method === "string";
    if (envelope && "id" in record) {
      answers.push(isAnswerId(record.id) ? record.id : null);
    } else if (envelope || (!("method" in record) && ("id" in record || "result" in record || "error" in record))) {
      continue;
    } else {
      answers.push(null);
    }
  }
  return answers;
}

function isAnswerId(value: unknown): value is AnswerId {
  return value === null || typeof value === "string" || Number.isInteger(value);
}

/** A small, fast, seeded generator of numbers in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const integer = (random: Random, below: number) => Math.floor(random() * below);

const CHARACTERS = ["a", "Z", "0", " ", "/", "\\", '"', "'", "\u0000", "\u0001", "\u001f", "\t", "\r", "\u007f", "é", "ß", "中", "文", "\u200f", "\u202e", "\u2028", "\u2029", "\ufeff", "\ud83d\ude00", "\ud800", "\udfff", "\uffff"];

function randomString(random: Random, longest = 12): string {
  let text = "";
  const length = integer(random, longest + 1);
  for (let index = 0; index < length; index += 1) {
    text += pick(random, CHARACTERS);
  }
  return text;
}

/** Any JSON value, of any type: what a wrong-typed field or an odd id is made of. */
function randomValue(random: Random, depth = 0): Json {
  const roll = integer(random, depth > 2 ? 8 : 11);
  switch (roll) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return integer(random, 1000) - 500;
    case 3:
      return pick(random, [0, -0, 1.5, -1e-7, 2 ** 53 + 1, 1e300, -Number.MAX_VALUE, Number.MIN_VALUE]);
    case 4:
    case 5:
      return randomString(random);
    case 6:
      return "";
    case 7:
      return pick(random, ["/", "/tmp", "relative/path", "text", "image", "sess_missing", "end_turn", "__proto__", "constructor"]);
    case 8:
    case 9:
      return Array.from({ length: integer(random, 4) }, () => randomValue(random, depth + 1));
    default: {
      const object: Record<string, Json> = {};
      for (let key = integer(random, 4); key > 0; key -= 1) {
        object[pick(random, ["type", "text", "sessionId", "cwd", "prompt", "_meta", "__proto__", randomString(random, 6)])] = randomValue(random, depth + 1);
      }
      return object;
    }
  }
}

/** Params that are right for each method the agent serves, before they are made wrong. */
function methodTemplates(random: Random, cwd: string): Record<string, () => Record<string, Json>> {
  const missing = () => `sess_missing_${integer(random, 1e6)}`;
  return {
    initialize: () => ({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: false }, clientInfo: { name: "fuzz", version: "1.0.0" } }),
    "session/new": () => ({ cwd, mcpServers: [] }),
    "session/load": () => ({ sessionId: missing(), cwd, mcpServers: [] }),
    "session/resume": () => ({ sessionId: missing(), cwd, mcpServers: [] }),
    "session/list": () => ({ cwd }),
    "session/prompt": () => ({ sessionId: missing(), prompt: [{ type: "text", text: "hello" } as Json, { type: "resource_link", uri: "file:///x", name: "x" }] }),
    "session/close": () => ({ sessionId: missing() }),
    "session/delete": () => ({ sessionId: missing() }),
    "session/set_mode": () => ({ sessionId: missing(), modeId: "code" }),
    "session/set_config_option": () => ({ sessionId: missing(), configId: "model", value: "x" }),
    authenticate: () => ({ methodId: "none" }),
  };
}

const NOTIFICATIONS = ["session/cancel", "$/cancel_request", "session/update", "_weft/unknown", "initialize", "session/prompt"];

/** Replaces, adds or deletes one field somewhere inside `value`: params of the wrong type. */
function mutate(random: Random, value: Json): Json {
  if (value === null || typeof value !== "object" || random() < 0.15) {
    return randomValue(random);
  }
  const copy: Json = Array.isArray(value) ? [...value] : { ...value };
  const keys = Object.keys(copy);
  const roll = random();
  if (keys.length === 0 || roll < 0.15) {
    (copy as Record<string, Json>)[pick(random, ["extra", "_meta", "0", randomString(random, 4)])] = randomValue(random);
    return copy;
  }
  const key = pick(random, keys);
  if (roll < 0.35 && !Array.isArray(copy)) {
    delete copy[key];
    return copy;
  }
  (copy as Record<string, Json>)[key] = mutate(random, (copy as Record<string, Json>)[key] as Json);
  return copy;
}

function nested(random: Random, depth: number): string {
  let open = "";
  let close = "";
  for (let level = 0; level < depth; level += 1) {
    if (random() < 0.5) {
      open += "[";
      close = `]${close}`;
    } else {
      open += '{"a":';
      close = `}${close}`;
    }
  }
  return `${open}${random() < 0.5 ? "1" : "[]"}${close}`;
}

/** Text-level damage: what turns a good line into a broken one, or an odd one that is still JSON. */
function damage(random: Random, text: string): { text: string; kind: string } {
  const at = integer(random, text.length + 1);
  switch (integer(random, 12)) {
    case 0:
      return { text: text.slice(0, at), kind: "truncated" };
    case 1:
      return { text: `${text.slice(0, at)}${pick(random, ["\u0000", "\u0007", "\u001b[2J", "\r", "\t", "\u00a0", "\u2028", "\ufeff", "\ud800"])}${text.slice(at)}`, kind: "control character" };
    case 2:
      return { text: `\ufeff${text}`, kind: "byte order mark" };
    case 3:
      return { text: `${text}\r`, kind: "CRLF" };
    case 4:
      return { text: `${text.slice(0, at)}${pick(random, [",", "}", "]", "{", "[", ":", '"', "'", "\\", "NaN", "//", "/*"])}${text.slice(at)}`, kind: "stray character" };
    case 5:
      return { text: text.replace('"jsonrpc":"2.0"', pick(random, ['"jsonrpc":"1.0"', '"jsonrpc":2', '"jsonrpc":null', '"JSONRPC":"2.0"', ""]).replace(/^$/, '"x":0')), kind: "wrong envelope" };
    case 6:
      return { text: text.replace(/^\{/, `{"id":${JSON.stringify(randomValue(random))},`), kind: "repeated id" };
    case 7:
      return { text: `${text.slice(0, at)}\n${text.slice(at)}`, kind: "split line" };
    case 8:
      return { text: `  ${text}\t `, kind: "padded" };
    case 9:
      return { text: text.replace(/"method":"[^"]*"/, `"method":${JSON.stringify(randomValue(random))}`), kind: "method of any type" };
    case 10:
      return { text: `${text}${text}`, kind: "two messages on a line" };
    default:
      return { text: text.replace(/,"params":/, ',"params":"\\u0000",x:'), kind: "broken params" };
  }
}

/**
 * `count` hostile lines: requests with params of the wrong type for every method, ids of every
 * JSON type (and repeated), unknown methods, notifications with bad params, answers to requests
 * never made, invalid JSON, truncated lines, control characters and odd Unicode, byte order marks,
 * batches, scalars, nesting just under and far over `maxDepth`, and long strings.
 *
 * A line nested over the limit is valid JSON or cut short, never damaged inside: an agent may
 * answer such a line on its top level without reading the rest, which is all JSON-RPC can ask.
 */
export function hostileLines(options: HostileOptions): HostileLine[] {
  const random = seededRandom(options.seed);
  const maxDepth = options.maxDepth ?? 128;
  const templates = methodTemplates(random, options.cwd);
  const methods = Object.keys(templates);
  const used: Array<{ id: Json; method: string }> = [];
  // Each id keeps to one method, so that an answer can be checked against that method's schema.
  const methodOfId = new Map<string, string>();
  let serial = 0;
  const freshId = (): Json => {
    serial += 1;
    switch (integer(random, 8)) {
      case 0:
        return serial;
      case 1:
        return -serial;
      case 2:
        return serial + 0.5;
      case 3:
        return `${randomString(random, 4)}#${serial}`;
      case 4:
        return `${"i".repeat(integer(random, 3) * 4000)}${serial}`;
      default:
        return `f${serial}`;
    }
  };
  const request = (wanted: string, params: Json, id: Json = freshId()) => {
    const key = JSON.stringify(id);
    const method = methodOfId.get(key) ?? wanted;
    methodOfId.set(key, method);
    used.push({ id, method });
    return JSON.stringify({ jsonrpc: "2.0", id, method, params });
  };
  const lines: HostileLine[] = [];
  while (lines.length < options.count) {
    const method = pick(random, methods);
    const template = (templates[method] as () => Record<string, Json>)();
    const roll = integer(random, 20);
    let line: HostileLine;
    switch (roll) {
      case 0:
      case 1:
      case 2:
        line = { text: request(method, mutate(random, template)), kind: `${method} with params of the wrong type` };
        break;
      case 3:
        line = { text: request(method, random() < 0.5 ? randomValue(random) : template, randomValue(random)), kind: `${method} with an id of any type` };
        break;
      case 4: {
        const earlier = used.length > 0 ? pick(random, used) : { id: 1, method };
        const params = (templates[earlier.method] ?? template) as Record<string, Json> | (() => Record<string, Json>);
        const fresh = typeof params === "function" ? params() : params;
        line = { text: request(earlier.method, random() < 0.5 ? fresh : mutate(random, fresh), earlier.id), kind: "a repeated id" };
        break;
      }
      case 5:
        line = { text: request(pick(random, ["no/such_method", "_weft/unknown", "", "session/cancel", "$/cancel_request", "session/fork", randomString(random, 8)]), randomValue(random)), kind: "an unknown method" };
        break;
      case 6:
        line = { text: JSON.stringify({ jsonrpc: "2.0", method: pick(random, NOTIFICATIONS), params: random() < 0.3 ? { sessionId: "sess_missing" } : randomValue(random) }), kind: "a notification with bad params" };
        break;
      case 7:
        line = { text: JSON.stringify({ jsonrpc: "2.0", id: integer(random, 5), ...(random() < 0.5 ? { result: randomValue(random) } : { error: random() < 0.5 ? { code: -32603, message: "no" } : randomValue(random) }) }), kind: "an answer to no request" };
        break;
      case 8:
      case 9:
      case 10:
        line = { ...damage(random, request(method, random() < 0.5 ? template : mutate(random, template))) };
        line.kind = `${method}, ${line.kind}`;
        break;
      case 11:
        line = {
          text: pick(random, [
            "[]",
            `[${request(method, template)}]`,
            `[${request(method, template)},${request("session/list", {})}]`,
            "42",
            '"a string"',
            "null",
            "true",
            "{}",
            `{"jsonrpc":"2.0"}`,
            "",
            "   ",
            "\ufeff",
          ]),
          kind: "a batch, a scalar or a blank",
        };
        break;
      case 12:
        line = { text: pick(random, ["not json", "{", "}", "{'jsonrpc':'2.0'}", '{"jsonrpc":"2.0","id":1,"method":"initialize",}', "\u0000\u0001\u0002", "{\"a\":1}}", randomString(random, 40)]), kind: "not JSON" };
        break;
      case 13:
      case 14: {
        const depth = pick(random, [maxDepth - 8, maxDepth + 1, maxDepth * 2, 1000, 5000]);
        const deep = nested(random, depth);
        const where = integer(random, 6);
        const texts = [
          `{"jsonrpc":"2.0","id":${JSON.stringify(freshId())},"method":"${method}","params":{"_meta":${deep}}}`,
          `{"params":${deep},"method":"${method}","jsonrpc":"2.0","id":${JSON.stringify(freshId())}}`,
          `{"jsonrpc":"2.0","method":"session/cancel","params":${deep}}`,
          `{"jsonrpc":"2.0","id":${integer(random, 5)},"result":${deep}}`,
          `{"jsonrpc":"1.0","id":${JSON.stringify(freshId())},"method":"${method}","params":${deep}}`,
          deep,
        ];
        let text = texts[where] as string;
        if (random() < 0.2) {
          text = text.slice(0, integer(random, text.length));
        }
        line = { text, kind: `nested ${depth} deep` };
        break;
      }
      case 15: {
        // Long strings cost the most to write and to read: a few of them go a long way.
        if (random() < 0.7) {
          line = { text: request(method, template), kind: `a good ${method}` };
          break;
        }
        const size = pick(random, [16 * 1024, 16 * 1024, 128 * 1024, 1024 * 1024]);
        const long = "x".repeat(size);
        line = {
          text: pick(random, [
            request("session/prompt", { sessionId: "sess_missing", prompt: [{ type: "text", text: long }] }),
            request(method, { ...template, _meta: { padding: long } }),
            request(`m${long}`, {}),
            `{"jsonrpc":"1.0","id":1,"method":"x","params":"${long}"}`,
            `"${long}"`,
          ]),
          kind: `a string of ${size} bytes`,
        };
        break;
      }
      case 16:
        line = { text: request("session/prompt", { sessionId: `sess_${randomString(random, 8)}`, prompt: [{ type: "text", text: randomString(random, 30) }] }), kind: "a prompt to an unknown session" };
        break;
      default:
        line = { text: request(method, template), kind: `a good ${method}` };
    }
    lines.push(line);
  }
  return lines;
}
