// Which JSON Schemas can be shown as a form, and how: ACP's elicitation schema is a flat object of
// plain fields (strings, numbers, integers, booleans, single and multiple choices), and a form must
// never ask for a secret. Also checks what a person sent back against the form they were shown.
//
// The secret rule: a field asks for a secret when its `format` is "password", it is `writeOnly`,
// or its name or title, split into words (camelCase, snake_case, kebab-case, spaces), has one of
// the words password, passwd, passphrase, secret, token, credential(s), otp or apikey, or the pair
// api/private/access key (`apiKey`, `private_key`, "Access key"). A schema with such a field is
// refused whatever the editor can show: a secret typed into a form or a chat would be kept in the
// session and shown to the model. ACP leaves secrets to URL-mode elicitation, which weft does not do.

import type {
  ElicitationPropertySchema,
  ElicitationSchema,
  EnumOption,
  MultiSelectPropertySchema,
  NumberPropertySchema,
  StringFormat,
  StringPropertySchema,
} from "@agentclientprotocol/sdk";

import type { JsonObject, JsonValue } from "../../types/json.js";

/** A schema as a form, or why it cannot be one. */
export type FormSchema =
  | { form: ElicitationSchema }
  /** The schema is not a flat object of plain fields; the question is asked in words instead. */
  | { refused: "not_flat"; reason: string }
  /** A field asks for a secret (see the rule above): it must not be asked at all. */
  | { refused: "secret"; field: string; reason: string };

const FORMATS: readonly StringFormat[] = ["email", "uri", "date", "date-time"];
const SECRET_WORDS = new Set(["password", "passwd", "passphrase", "secret", "secrets", "token", "credential", "credentials", "otp", "apikey"]);
const SECRET_PAIRS = new Set(["api key", "private key", "access key"]);
/** Keywords that make a schema more than one flat object. */
const COMPOUND = ["$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "patternProperties", "dependentSchemas", "$defs", "definitions"];

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

/**
 * The form for `schema`, with each field's default taken from `defaults` where it has a value of
 * the field's type (for a form that starts filled in, such as a tool call's input to edit).
 */
export function formSchema(schema: unknown, defaults?: Record<string, unknown>): FormSchema {
  if (!isObject(schema) || schema.type !== "object" || !isObject(schema.properties)) {
    return { refused: "not_flat", reason: "the schema is not an object with properties" };
  }
  const compound = COMPOUND.find((keyword) => keyword in schema);
  if (compound) {
    return { refused: "not_flat", reason: `the schema uses ${compound}` };
  }
  const required = schema.required ?? [];
  if (!isStringList(required)) {
    return { refused: "not_flat", reason: "required is not a list of names" };
  }
  const properties: Record<string, ElicitationPropertySchema> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const secret = secretReason(name, property);
    if (secret) {
      return { refused: "secret", field: name, reason: secret };
    }
    const field = formField(property, defaults?.[name]);
    if (typeof field === "string") {
      return { refused: "not_flat", reason: `field ${name} ${field}` };
    }
    properties[name] = field;
  }
  const missing = required.find((name) => !(name in properties));
  if (missing !== undefined) {
    return { refused: "not_flat", reason: `required field ${missing} is not among the properties` };
  }
  const form: ElicitationSchema = { type: "object", properties };
  if (required.length > 0) {
    form.required = required;
  }
  if (typeof schema.title === "string") {
    form.title = schema.title;
  }
  if (typeof schema.description === "string") {
    form.description = schema.description;
  }
  return { form };
}

/** Why a field asks for a secret, or undefined when it does not. */
export function secretReason(name: string, property: unknown): string | undefined {
  if (isObject(property) && property.format === "password") {
    return `field ${name} has format "password"`;
  }
  if (isObject(property) && property.writeOnly === true) {
    return `field ${name} is writeOnly`;
  }
  for (const label of [name, isObject(property) && typeof property.title === "string" ? property.title : ""]) {
    const words = label
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
    const word = words.find((candidate) => SECRET_WORDS.has(candidate));
    const pair = words.slice(1).find((candidate, index) => SECRET_PAIRS.has(`${words[index]} ${candidate}`));
    if (word !== undefined || pair !== undefined) {
      return `field ${name} is named like a secret ("${label}")`;
    }
  }
  return undefined;
}

/** A field of the form, or what keeps the property from being one. */
function formField(property: unknown, preset: unknown): ElicitationPropertySchema | string {
  if (!isObject(property)) {
    return "is not a schema";
  }
  // A string's oneOf is a list of titled choices, which forms have; any other is a union.
  const compound = COMPOUND.find((keyword) => keyword in property && !(keyword === "oneOf" && property.type === "string"));
  if (compound) {
    return `uses ${compound}`;
  }
  const labels: { title?: string; description?: string } = {};
  if (typeof property.title === "string") {
    labels.title = property.title;
  }
  if (typeof property.description === "string") {
    labels.description = property.description;
  }
  switch (property.type) {
    case "string":
      return stringField(property, labels, preset);
    case "number":
    case "integer":
      return numberField(property, property.type, labels, preset);
    case "boolean": {
      const field: ElicitationPropertySchema = { type: "boolean", ...labels };
      const value = typeof preset === "boolean" ? preset : property.default;
      if (typeof value === "boolean") {
        field.default = value;
      }
      return field;
    }
    case "array":
      return choicesField(property, labels, preset);
    default:
      return `has type ${JSON.stringify(property.type ?? null)}, not a string, number, integer, boolean or list of choices`;
  }
}

function stringField(property: Json, labels: { title?: string; description?: string }, preset: unknown): ElicitationPropertySchema | string {
  const field: StringPropertySchema & { type: "string" } = { type: "string", ...labels };
  for (const key of ["minLength", "maxLength"] as const) {
    if (typeof property[key] === "number") {
      field[key] = property[key];
    }
  }
  if (typeof property.pattern === "string") {
    field.pattern = property.pattern;
  }
  // Other formats (uuid, ipv4, …) are left for the graph to check: a form has only these four.
  if (FORMATS.includes(property.format as StringFormat)) {
    field.format = property.format as StringFormat;
  }
  let allowed: string[] | undefined;
  if (property.enum !== undefined) {
    if (!isStringList(property.enum)) {
      return "has choices that are not all strings";
    }
    field.enum = property.enum;
    allowed = property.enum;
  }
  if (property.oneOf !== undefined) {
    const options = enumOptions(property.oneOf);
    if (!options) {
      return "uses oneOf for something other than titled choices";
    }
    field.oneOf = options;
    allowed = options.map((option) => option.const);
  }
  const value = typeof preset === "string" ? preset : property.default;
  if (typeof value === "string" && (!allowed || allowed.includes(value))) {
    field.default = value;
  }
  return field;
}

function numberField(property: Json, type: "number" | "integer", labels: { title?: string; description?: string }, preset: unknown): ElicitationPropertySchema {
  const field: NumberPropertySchema & { type: "number" | "integer" } = { type, ...labels };
  if (typeof property.minimum === "number") {
    field.minimum = property.minimum;
  }
  if (typeof property.maximum === "number") {
    field.maximum = property.maximum;
  }
  // A form knows only inclusive bounds; for whole numbers an exclusive bound is the next one in.
  if (type === "integer" && typeof property.exclusiveMinimum === "number") {
    field.minimum = Math.max(field.minimum ?? -Infinity, Math.floor(property.exclusiveMinimum) + 1);
  }
  if (type === "integer" && typeof property.exclusiveMaximum === "number") {
    field.maximum = Math.min(field.maximum ?? Infinity, Math.ceil(property.exclusiveMaximum) - 1);
  }
  const value = typeof preset === "number" ? preset : property.default;
  if (typeof value === "number" && (type === "number" || Number.isInteger(value))) {
    field.default = value;
  }
  return field;
}

function choicesField(property: Json, labels: { title?: string; description?: string }, preset: unknown): ElicitationPropertySchema | string {
  const items = property.items;
  let choices: string[];
  let options: EnumOption[] | undefined;
  if (isObject(items) && items.type === "string" && isStringList(items.enum)) {
    choices = items.enum;
  } else if (isObject(items) && enumOptions(items.anyOf)) {
    options = enumOptions(items.anyOf) as EnumOption[];
    choices = options.map((option) => option.const);
  } else {
    return "is a list of something other than string choices";
  }
  const field: MultiSelectPropertySchema & { type: "array" } = { type: "array", ...labels, items: options ? { anyOf: options } : { type: "string", enum: choices } };
  for (const key of ["minItems", "maxItems"] as const) {
    if (typeof property[key] === "number") {
      field[key] = property[key];
    }
  }
  const value = isStringList(preset) ? preset : property.default;
  if (isStringList(value) && value.every((choice) => choices.includes(choice))) {
    field.default = value;
  }
  return field;
}

/** Titled choices (`{ const, title, description? }` each), or undefined when `value` is not a list of them. */
function enumOptions(value: unknown): EnumOption[] | undefined {
  if (!Array.isArray(value) || !value.every((option) => isObject(option) && typeof option.const === "string" && typeof option.title === "string")) {
    return undefined;
  }
  return (value as Json[]).map((option) => {
    const choice: EnumOption = { const: option.const as string, title: option.title as string };
    if (typeof option.description === "string") {
      choice.description = option.description;
    }
    return choice;
  });
}

/**
 * What a person filled in, checked against the form they were shown: only the form's fields, each
 * of its type (a choice among its choices), and every required one there. A problem says what does
 * not fit.
 */
export function formContent(form: ElicitationSchema, content: unknown): { content: JsonObject } | { problem: string } {
  if (content !== undefined && content !== null && !isObject(content)) {
    return { problem: "the answer is not an object" };
  }
  const properties = form.properties ?? {};
  const kept: JsonObject = {};
  for (const [name, value] of Object.entries(content ?? {})) {
    const field = properties[name];
    if (!field) {
      continue;
    }
    const problem = fieldProblem(field, value);
    if (problem) {
      return { problem: `field ${name} ${problem}` };
    }
    kept[name] = value as JsonValue;
  }
  const missing = (form.required ?? []).find((name) => !(name in kept));
  if (missing !== undefined) {
    return { problem: `required field ${missing} is missing` };
  }
  return { content: kept };
}

function fieldProblem(field: ElicitationPropertySchema, value: unknown): string | undefined {
  switch (field.type) {
    case "string": {
      const titled = (field as { oneOf?: EnumOption[] | null }).oneOf;
      const choices = (field as { enum?: string[] | null }).enum ?? titled?.map((option) => option.const);
      if (typeof value !== "string") {
        return "is not a string";
      }
      return choices && !choices.includes(value) ? "is not one of its choices" : undefined;
    }
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "is not a number";
    case "integer":
      return Number.isInteger(value) ? undefined : "is not a whole number";
    case "boolean":
      return typeof value === "boolean" ? undefined : "is not true or false";
    case "array": {
      const items = (field as { items?: { enum?: string[]; anyOf?: EnumOption[] } }).items;
      const choices = items?.enum ?? items?.anyOf?.map((option) => option.const) ?? [];
      return isStringList(value) && value.every((choice) => choices.includes(choice)) ? undefined : "is not a list of its choices";
    }
    default:
      return "has a type forms do not have";
  }
}
