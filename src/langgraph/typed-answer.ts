// A typed question's answer in words, read into the question's JSON Schema: an editor that shows
// no forms asks it as a message, and the person's reply (text) must become the value the graph
// expects. What does not fit is said in plain words, with how to answer, for the question to be
// asked again.

import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";

import type { JsonObject } from "../types/json.js";
import { parseJson } from "../store-core/parse-json.js";

/** The value an answer in words gives, or why it does not fit the schema. */
export type TypedAnswer = { fits: true; value: unknown } | { fits: false; problem: string };

type Schema = Record<string, unknown>;

/**
 * Reads `text` into `schema`. Tried in turn, the first that the schema accepts is the value: JSON
 * (`{"city": "Oslo", "nights": 2}`); for an object with one field, the text as that field's value;
 * `field: value` lines (or `field: value, field: value`); for several fields, values in the
 * schema's field order separated by commas; for a schema that is not an object, the text as its
 * value. Values are read by their field's schema: a choice by its name in any case, by the start
 * of its name or by its number in the list; a number, a yes or no, a list separated by commas.
 * A schema that cannot be checked takes the first reading.
 */
export function typedAnswer(text: string, schema: JsonObject): TypedAnswer {
  const plain = withoutMeta(schema);
  const readings = readingsOf(text.trim(), plain);
  const check = validator(plain);
  if (!check) {
    return readings.length > 0 ? { fits: true, value: readings[0] } : { fits: false, problem: `That answer could not be read. ${howToAnswer(plain)}` };
  }
  for (const reading of readings) {
    if (check(reading)) {
      return { fits: true, value: reading };
    }
  }
  const [first] = readings;
  if (first === undefined) {
    return { fits: false, problem: `That answer could not be read. ${howToAnswer(plain)}` };
  }
  // Why the likeliest reading does not fit.
  check(first);
  const problems = describeErrors(check.errors ?? [], plain);
  return { fits: false, problem: `That answer does not fit${problems.length > 0 ? `: ${problems.join("; ")}` : ""}. ${howToAnswer(plain)}` };
}

/** Whether `value` fits `schema`; undefined when it fits or the schema cannot be checked, else why not, in words. */
export function schemaProblem(value: unknown, schema: JsonObject): string | undefined {
  const plain = withoutMeta(schema);
  const check = validator(plain);
  if (!check || check(value)) {
    return undefined;
  }
  const problems = describeErrors(check.errors ?? [], plain);
  return `That answer does not fit${problems.length > 0 ? `: ${problems.join("; ")}` : ""}.`;
}

/** How to answer the question in words: its fields, what each takes, and the shapes an answer may have. */
export function howToAnswer(schema: JsonObject | Schema): string {
  const plain = withoutMeta(schema as JsonObject);
  const fields = fieldsOf(plain);
  if (!fields) {
    return `Answer with ${describeValue(plain)}.`;
  }
  const [only] = fields;
  if (fields.length === 1 && only) {
    return `Answer with ${only.name}, ${describeValue(only.schema)}.`;
  }
  const list = fields.map((field) => `${field.name} (${describeValue(field.schema)}${field.required ? "" : ", optional"})`);
  const example = JSON.stringify(Object.fromEntries(fields.filter((field) => field.required).map((field) => [field.name, exampleOf(field.schema)])));
  return `Answer with ${joinWords(list, "and")}, as \`field: value\` lines or as JSON such as ${example}.`;
}

interface Field {
  name: string;
  schema: Schema;
  required: boolean;
}

/** An object schema's fields, in the schema's order; undefined for a schema that is not an object with fields. */
function fieldsOf(schema: Schema): Field[] | undefined {
  const properties = schema.properties;
  if (!isSchema(properties) || Object.keys(properties).length === 0) {
    return undefined;
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : []);
  return Object.entries(properties).map(([name, property]) => ({ name, schema: isSchema(property) ? property : {}, required: required.has(name) }));
}

/** The ways `text` could be meant, most likely first. */
function readingsOf(text: string, schema: Schema): unknown[] {
  const readings: unknown[] = [];
  const json = parsedJson(text);
  const fields = fieldsOf(schema);
  if (!fields) {
    readings.push(valueFor(text, schema));
    if (json !== undefined) {
      readings.push(json);
    }
    return readings;
  }
  if (json !== undefined && typeof json === "object" && json !== null && !Array.isArray(json)) {
    readings.push(json);
  }
  const pairs = namedValues(text, fields);
  if (pairs) {
    readings.push(pairs);
  }
  const [only] = fields;
  const requiredFields = fields.filter((field) => field.required);
  const [onlyRequired] = requiredFields;
  if (fields.length === 1 && only) {
    readings.push({ [only.name]: valueFor(text, only.schema) });
  } else if (requiredFields.length === 1 && onlyRequired && !pairs) {
    readings.push({ [onlyRequired.name]: valueFor(text, onlyRequired.schema) });
  } else if (!pairs) {
    const parts = text.split(/\s*[,\n]\s*/).filter((part) => part !== "");
    if (parts.length >= requiredFields.length && parts.length <= fields.length && parts.length > 1) {
      readings.push(Object.fromEntries(parts.map((part, index) => [fields[index]?.name ?? "", valueFor(part, fields[index]?.schema ?? {})])));
    }
  }
  return readings;
}

/** `field: value` (or `field = value`) lines, or pairs on one line separated by commas or semicolons; undefined unless every pair names a field. */
function namedValues(text: string, fields: readonly Field[]): Record<string, unknown> | undefined {
  const byName = new Map(fields.flatMap((field) => [[field.name.toLowerCase(), field] as const, ...(typeof field.schema.title === "string" ? [[field.schema.title.toLowerCase(), field] as const] : [])]));
  const lines = text.includes("\n") ? text.split("\n") : text.split(/[,;]\s*(?=[^,;:=]+[:=])/);
  const found: Record<string, unknown> = {};
  let any = false;
  for (const line of lines) {
    if (line.trim() === "") {
      continue;
    }
    const match = /^\s*([^:=]+?)\s*[:=]\s*(.*?)\s*$/.exec(line);
    const field = match ? byName.get((match[1] ?? "").toLowerCase()) : undefined;
    if (!match || !field) {
      return undefined;
    }
    found[field.name] = valueFor(match[2] ?? "", field.schema);
    any = true;
  }
  return any ? found : undefined;
}

/** `text` as a value of `schema`: a choice, a number, a yes or no, a list, JSON; the text when nothing else fits. */
function valueFor(text: string, schema: Schema): unknown {
  const trimmed = text.trim();
  const choices = choicesOf(schema);
  if (choices) {
    return choiceFor(trimmed, choices);
  }
  switch (typeOf(schema)) {
    case "number":
    case "integer":
      return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed) ? Number(trimmed) : trimmed;
    case "boolean":
      if (/^(y|yes|true|on|ok|1)$/i.test(trimmed)) {
        return true;
      }
      return /^(n|no|false|off|0)$/i.test(trimmed) ? false : trimmed;
    case "array": {
      const items = isSchema(schema.items) ? schema.items : {};
      return trimmed === "" ? [] : trimmed.split(/\s*[,\n]\s*/).map((item) => valueFor(item, items));
    }
    case "object":
    case "null":
      return parsedJson(trimmed) ?? trimmed;
    default:
      return trimmed;
  }
}

/** The choices a schema allows (`enum`, or `const` alternatives), or undefined for one that is not a choice. */
function choicesOf(schema: Schema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) {
    return schema.enum;
  }
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (alternatives && alternatives.length > 0 && alternatives.every((alternative) => isSchema(alternative) && "const" in alternative)) {
    return alternatives.map((alternative) => (alternative as Schema).const);
  }
  return undefined;
}

/** The choice `text` names: in any case, by the start of its name when only one starts so, or by its number in the list. */
function choiceFor(text: string, choices: readonly unknown[]): unknown {
  const lower = text.toLowerCase();
  const exact = choices.find((choice) => String(choice).toLowerCase() === lower);
  if (exact !== undefined) {
    return exact;
  }
  const starting = lower === "" ? [] : choices.filter((choice) => String(choice).toLowerCase().startsWith(lower));
  if (starting.length === 1) {
    return starting[0];
  }
  const number = /^\d+$/.test(text) ? Number(text) : 0;
  return number >= 1 && number <= choices.length ? choices[number - 1] : text;
}

/** The schema's type, the first that is not null when it lists several. */
function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === "string") {
    return type;
  }
  if (Array.isArray(type)) {
    return type.find((entry): entry is string => typeof entry === "string" && entry !== "null") ?? (type.includes("null") ? "null" : undefined);
  }
  const [alternative] = [schema.anyOf, schema.oneOf].flatMap((list) => (Array.isArray(list) ? list.filter((entry) => isSchema(entry) && entry.type !== "null") : []));
  return isSchema(alternative) ? typeOf(alternative) : undefined;
}

/** What a field takes, in words: `one of red, green, blue`, `a whole number from 1 to 30`, `text`. */
function describeValue(schema: Schema): string {
  const choices = choicesOf(schema);
  if (choices) {
    return `one of ${choices.map(String).join(", ")}`;
  }
  const type = typeOf(schema);
  const minimum = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const maximum = typeof schema.maximum === "number" ? schema.maximum : undefined;
  const range = minimum !== undefined && maximum !== undefined ? ` from ${minimum} to ${maximum}` : minimum !== undefined ? ` of at least ${minimum}` : maximum !== undefined ? ` of at most ${maximum}` : "";
  switch (type) {
    case "integer":
      return `a whole number${range}`;
    case "number":
      return `a number${range}`;
    case "boolean":
      return "yes or no";
    case "array":
      return `a list separated by commas${isSchema(schema.items) ? ` of ${describeValue(schema.items)}` : ""}`;
    case "object":
      return "JSON";
    default:
      return typeof schema.description === "string" && schema.description !== "" ? `text: ${schema.description}` : "text";
  }
}

/** A value of `schema` for an example answer. */
function exampleOf(schema: Schema): unknown {
  const [choice] = choicesOf(schema) ?? [];
  if (choice !== undefined) {
    return choice;
  }
  switch (typeOf(schema)) {
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return [];
    default:
      return "…";
  }
}

/** The validator's errors in words, one for each place that is wrong. */
function describeErrors(errors: readonly ErrorObject[], schema: Schema): string[] {
  const said = new Set<string>();
  for (const error of errors) {
    // Alternatives fail together; their parent's error (anyOf, oneOf) says it once.
    if (error.keyword === "if") {
      continue;
    }
    said.add(describeError(error, schema));
  }
  return [...said];
}

function describeError(error: ErrorObject, schema: Schema): string {
  const path = error.instancePath.split("/").slice(1).map(decodePointer);
  const field = path.length > 0 ? path.join(".") : "the answer";
  const params = error.params as Record<string, unknown>;
  const at = schemaAt(schema, path);
  switch (error.keyword) {
    case "required":
      return `${path.length > 0 ? `${field}.` : ""}${String(params.missingProperty)} is missing`;
    case "additionalProperties":
      return `${String(params.additionalProperty)} is not one of its fields`;
    case "enum":
      return `${field} must be one of: ${(Array.isArray(params.allowedValues) ? params.allowedValues : (choicesOf(at) ?? [])).map(String).join(", ")}`;
    case "anyOf":
    case "oneOf":
      return choicesOf(at) ? `${field} must be one of: ${(choicesOf(at) ?? []).map(String).join(", ")}` : `${field} must be ${describeValue(at)}`;
    case "const":
      return `${field} must be ${JSON.stringify(params.allowedValue)}`;
    case "type":
      return `${field} must be ${describeValue({ type: params.type })}`;
    case "minimum":
    case "exclusiveMinimum":
      return `${field} must be ${error.keyword === "minimum" ? "at least" : "more than"} ${String(params.limit)}`;
    case "maximum":
    case "exclusiveMaximum":
      return `${field} must be ${error.keyword === "maximum" ? "at most" : "less than"} ${String(params.limit)}`;
    case "minLength":
      return `${field} must be at least ${String(params.limit)} characters long`;
    case "maxLength":
      return `${field} must be at most ${String(params.limit)} characters long`;
    case "minItems":
      return `${field} must have at least ${String(params.limit)} items`;
    case "maxItems":
      return `${field} must have at most ${String(params.limit)} items`;
    case "pattern":
      return `${field} must match ${String(params.pattern)}`;
    case "multipleOf":
      return `${field} must be a multiple of ${String(params.multipleOf)}`;
    default:
      return `${field} ${error.message ?? "is not allowed"}`;
  }
}

/** The schema of the value at `path` inside `schema`, or an empty one when it cannot be followed. */
function schemaAt(schema: Schema, path: readonly string[]): Schema {
  let current: Schema = schema;
  for (const key of path) {
    const properties = isSchema(current.properties) ? current.properties : undefined;
    const next = properties?.[key] ?? (/^\d+$/.test(key) ? current.items : undefined);
    if (!isSchema(next)) {
      return {};
    }
    current = next;
  }
  return current;
}

function decodePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

function joinWords(items: readonly string[], last: string): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${last} ${items.at(-1) ?? ""}`;
}

function parsedJson(text: string): unknown {
  return /^[[{"]|^-?\d|^(true|false|null)$/.test(text) ? parseJson(text) : undefined;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema without `$schema`, which names a meta-schema the validator need not know. */
function withoutMeta(schema: JsonObject): Schema {
  const { $schema: _meta, ...rest } = schema as Schema;
  return rest;
}

let ajv: Ajv2020 | undefined;
/** Compiled validators by schema text: a question is asked (and answered) more than once. */
const validators = new Map<string, ValidateFunction | undefined>();
/** The most validators kept; a graph asks few distinct questions. */
const MAX_VALIDATORS = 64;

/** A validator for `schema`, or undefined for one the validator cannot compile. */
function validator(schema: Schema): ValidateFunction | undefined {
  const key = JSON.stringify(schema);
  if (validators.has(key)) {
    return validators.get(key);
  }
  ajv ??= new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  let compiled: ValidateFunction | undefined;
  try {
    compiled = ajv.compile(schema);
  } catch {
    compiled = undefined;
  }
  if (validators.size >= MAX_VALIDATORS) {
    validators.clear();
  }
  validators.set(key, compiled);
  return compiled;
}
