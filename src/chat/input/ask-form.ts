// A form from `elicitation/create`, asked in the terminal one field at a time: strings, numbers,
// integers, booleans and choices, required fields asked again until answered, and `/decline` or
// `/cancel` (or Ctrl-C) on any field to end the form without filling it in.

import type * as acp from "@agentclientprotocol/sdk";

import type { Style } from "../render-updates.js";

/** Asks one line and resolves with it, or undefined when the question was withdrawn. */
export type AskLine = (question: string) => Promise<string | undefined>;

type Value = string | number | boolean | string[];

/** The answer to the whole form, in the shape `elicitation/create` expects. */
export async function askForm(schema: acp.ElicitationSchema, message: string, ask: AskLine, write: (text: string) => void, style: Style): Promise<acp.CreateElicitationResponse> {
  const required = new Set(schema.required ?? []);
  write(`  ${style.yellow("?")} ${style.bold(message)} ${style.dim("(/decline or /cancel to answer no form)")}\n`);
  const content: Record<string, Value> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const field = describeField(name, property);
    // What the field is for and what it takes, above its question.
    const about = [field.description, field.limits].filter((part) => part !== "").join(" ");
    if (about !== "") {
      write(style.dim(`      ${about}\n`));
    }
    for (;;) {
      const answer = await ask(`    ${field.label}${required.has(name) ? "" : style.dim(" (optional)")}: `);
      if (answer === undefined || answer.trim() === "/cancel") {
        return { action: "cancel" };
      }
      if (answer.trim() === "/decline") {
        return { action: "decline" };
      }
      if (answer.trim() === "") {
        if (field.fallback !== undefined) {
          content[name] = field.fallback;
          break;
        }
        if (!required.has(name)) {
          break;
        }
        write(style.dim("    This field is required.\n"));
        continue;
      }
      const value = field.parse(answer.trim());
      if (typeof value === "object" && value !== null && "problem" in value) {
        write(style.dim(`    ${value.problem}\n`));
        continue;
      }
      content[name] = value;
      break;
    }
  }
  return { action: "accept", content };
}

interface Field {
  label: string;
  /** The schema's description of the field ("" when it has none). */
  description: string;
  /** Its limits in words, in brackets: lengths, bounds, a pattern or format ("" when none). */
  limits: string;
  fallback: Value | undefined;
  parse(text: string): Value | { problem: string };
}

/** How one property is asked and read back: its question, and the answer checked against its limits. */
function describeField(name: string, property: acp.ElicitationPropertySchema): Field {
  const schema = property as Record<string, unknown>;
  const base = askedField(name, schema);
  const limits = limitsOf(schema);
  return {
    ...base,
    description: typeof schema.description === "string" ? schema.description.trim() : "",
    limits: limits.words.length > 0 ? `(${limits.words.join("; ")})` : "",
    parse: (text) => {
      const value = base.parse(text);
      if (typeof value === "object" && value !== null && "problem" in value) {
        return value;
      }
      const problem = limits.check(value);
      return problem === undefined ? value : { problem };
    },
  };
}

/** A field's limits, in words and as a check of an answer (undefined when it keeps to them). */
function limitsOf(schema: Record<string, unknown>): { words: string[]; check(value: Value): string | undefined } {
  const number = (key: string) => (typeof schema[key] === "number" ? (schema[key] as number) : undefined);
  const words: string[] = [];
  const checks: Array<(value: Value) => string | undefined> = [];
  const range = (least: number | undefined, most: number | undefined, unit: string) => {
    if (least !== undefined && most !== undefined) {
      return least === most ? `exactly ${least}${unit}` : `${least} to ${most}${unit}`;
    }
    return least !== undefined ? `at least ${least}${unit}` : most !== undefined ? `at most ${most}${unit}` : undefined;
  };
  const bounded = (least: number | undefined, most: number | undefined, unit: string, measure: (value: Value) => number | undefined) => {
    const said = range(least, most, unit);
    if (said === undefined) {
      return;
    }
    words.push(said);
    checks.push((value) => {
      const size = measure(value);
      return size !== undefined && ((least !== undefined && size < least) || (most !== undefined && size > most)) ? `Enter ${said}.` : undefined;
    });
  };
  bounded(number("minLength"), number("maxLength"), " characters", (value) => (typeof value === "string" ? [...value].length : undefined));
  bounded(number("minimum"), number("maximum"), "", (value) => (typeof value === "number" ? value : undefined));
  bounded(number("minItems"), number("maxItems"), " choices", (value) => (Array.isArray(value) ? value.length : undefined));
  if (typeof schema.pattern === "string") {
    const pattern = schema.pattern;
    words.push(`matching ${pattern}`);
    checks.push((value) => {
      try {
        return typeof value === "string" && !new RegExp(pattern, "u").test(value) ? `Enter text matching ${pattern}.` : undefined;
      } catch {
        return undefined; // a pattern JavaScript cannot read: the agent checks it
      }
    });
  }
  if (typeof schema.format === "string") {
    words.push(`format: ${schema.format}`);
  }
  return { words, check: (value) => checks.map((check) => check(value)).find((problem) => problem !== undefined) };
}

/** How one property is asked and read back, as its type says. */
function askedField(name: string, schema: Record<string, unknown>): Omit<Field, "description" | "limits"> {
  const title = typeof schema.title === "string" ? schema.title : name;
  const fallback = isValue(schema.default) ? schema.default : undefined;
  const suffix = fallback === undefined ? "" : ` [${String(fallback)}]`;
  const choices = choicesOf(schema.type === "array" ? (schema.items as Record<string, unknown> | undefined) ?? {} : schema);
  const pick = (text: string): string | { problem: string } => {
    const index = Number(text);
    const found = choices.find((choice) => choice.value === text || choice.title.toLowerCase() === text.toLowerCase()) ?? (Number.isInteger(index) ? choices[index - 1] : undefined);
    return found ? found.value : { problem: `Choose one of ${choices.map((choice) => choice.value).join(", ")}.` };
  };
  const menu = choices.map((choice, index) => `${index + 1}) ${choice.title}`).join("  ");
  switch (schema.type) {
    case "boolean":
      return {
        label: `${title} (y/n)${suffix}`,
        fallback,
        parse: (text) => (/^(y|yes|true)$/i.test(text) ? true : /^(n|no|false)$/i.test(text) ? false : { problem: "Answer y or n." }),
      };
    case "number":
    case "integer":
      return {
        label: `${title} (${schema.type})${suffix}`,
        fallback,
        parse: (text) => {
          const value = Number(text);
          if (!Number.isFinite(value) || (schema.type === "integer" && !Number.isInteger(value))) {
            return { problem: `Enter ${schema.type === "integer" ? "a whole number" : "a number"}.` };
          }
          return value;
        },
      };
    case "array":
      return {
        label: `${title} (some of ${menu}, separated by commas)${suffix}`,
        fallback,
        parse: (text) => {
          const values: string[] = [];
          for (const part of text.split(",").map((item) => item.trim()).filter((item) => item !== "")) {
            const value = pick(part);
            if (typeof value !== "string") {
              return value;
            }
            values.push(value);
          }
          return values;
        },
      };
    default:
      if (choices.length > 0) {
        return { label: `${title} (${menu})${suffix}`, fallback, parse: pick };
      }
      return { label: `${title}${suffix}`, fallback, parse: (text) => text };
  }
}

function choicesOf(schema: Record<string, unknown>): Array<{ value: string; title: string }> {
  if (Array.isArray(schema.enum)) {
    return schema.enum.filter((value): value is string => typeof value === "string").map((value) => ({ value, title: value }));
  }
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  return options
    .filter((option): option is { const: string; title?: string } => typeof option === "object" && option !== null && typeof (option as { const?: unknown }).const === "string")
    .map((option) => ({ value: option.const, title: option.title ?? option.const }));
}

function isValue(value: unknown): value is Value {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" || (Array.isArray(value) && value.every((item) => typeof item === "string"));
}
