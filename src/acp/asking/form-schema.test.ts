// Which JSON Schemas become forms: flat objects of plain fields do (checked with the SDK's own guard
// for a form request), anything nested or combined does not, a field that asks for a secret is
// refused by the documented rule, and what comes back is checked against the form that was shown.

import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { formContent, formSchema, secretReason } from "./form-schema.js";

/** True when the SDK takes `requestedSchema` as a valid form request. */
const sdkAccepts = (requestedSchema: acp.ElicitationSchema) => acp.CreateElicitationRequest.isForm({ sessionId: "s", mode: "form", message: "Fill in", requestedSchema });

const formOf = (schema: unknown, defaults?: Record<string, unknown>): acp.ElicitationSchema => {
  const result = formSchema(schema, defaults);
  if (!("form" in result)) {
    throw new Error(`not a form: ${result.reason}`);
  }
  return result.form;
};

describe("formSchema", () => {
  it("makes a form of a zod object's JSON Schema, its defaults from the values given", () => {
    const schema = z.toJSONSchema(
      z.object({
        path: z.string().describe("The file."),
        content: z.string(),
        replace_all: z.boolean().optional(),
        timeout_ms: z.number().int().positive().optional(),
        level: z.enum(["low", "high"]),
      }),
      { io: "input" },
    );
    const form = formOf(schema, { path: "a.txt", content: "hello", replace_all: "yes", timeout_ms: 500, level: "medium" });
    expect(form).toEqual({
      type: "object",
      properties: {
        path: { type: "string", description: "The file.", default: "a.txt" },
        content: { type: "string", default: "hello" },
        // Not a boolean: no default.
        replace_all: { type: "boolean" },
        timeout_ms: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 500 },
        // Not one of the choices: no default.
        level: { type: "string", enum: ["low", "high"] },
      },
      required: ["path", "content", "level"],
    });
    expect(sdkAccepts(form)).toBe(true);
  });

  it("keeps titles, formats, titled choices and lists of choices", () => {
    const form = formOf({
      type: "object",
      title: "Deploy",
      description: "Where to deploy.",
      properties: {
        email: { type: "string", format: "email", title: "Your email" },
        id: { type: "string", format: "uuid", minLength: 36, maxLength: 36 },
        region: { type: "string", oneOf: [{ const: "eu", title: "Europe" }, { const: "us", title: "America", description: "Virginia" }], default: "eu" },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, minItems: 1, default: ["a"] },
        owners: { type: "array", items: { anyOf: [{ const: "ann", title: "Ann" }] } },
        ratio: { type: "number", exclusiveMinimum: 0, maximum: 1, default: 0.5 },
      },
    });
    expect(form).toEqual({
      type: "object",
      title: "Deploy",
      description: "Where to deploy.",
      properties: {
        email: { type: "string", format: "email", title: "Your email" },
        // A format forms do not have is left for the graph to check.
        id: { type: "string", minLength: 36, maxLength: 36 },
        region: { type: "string", oneOf: [{ const: "eu", title: "Europe" }, { const: "us", title: "America", description: "Virginia" }], default: "eu" },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, minItems: 1, default: ["a"] },
        owners: { type: "array", items: { anyOf: [{ const: "ann", title: "Ann" }] } },
        ratio: { type: "number", maximum: 1, default: 0.5 },
      },
    });
    expect(sdkAccepts(form)).toBe(true);
  });

  it.each([
    ["a schema that is not an object", { type: "string" }],
    ["an object without properties", { type: "object" }],
    ["a nested object", { type: "object", properties: { address: { type: "object", properties: { city: { type: "string" } } } } }],
    ["a list of numbers", { type: "object", properties: { sizes: { type: "array", items: { type: "number" } } } }],
    ["a nullable field (a union)", z.toJSONSchema(z.object({ name: z.string().nullable() }))],
    ["a field of two types", { type: "object", properties: { name: { type: ["string", "null"] } } }],
    ["a reference", { type: "object", properties: { name: { $ref: "#/$defs/name" } } }],
    ["a union at the top", { type: "object", properties: {}, anyOf: [{ required: ["a"] }] }],
    ["a required field that is not there", { type: "object", properties: { a: { type: "string" } }, required: ["b"] }],
    ["a field without a type", { type: "object", properties: { a: { description: "anything" } } }],
  ])("refuses %s as not flat", (_what, schema) => {
    expect(formSchema(schema)).toMatchObject({ refused: "not_flat", reason: expect.any(String) });
  });

  it.each([
    ["format password", { type: "object", properties: { code: { type: "string", format: "password" } } }, "code"],
    ["writeOnly", { type: "object", properties: { value: { type: "string", writeOnly: true } } }, "value"],
    ["a name with password", { type: "object", properties: { newPassword: { type: "string" } } }, "newPassword"],
    ["apiKey", { type: "object", properties: { apiKey: { type: "string" } } }, "apiKey"],
    ["api_key", { type: "object", properties: { api_key: { type: "string" } } }, "api_key"],
    ["a title with access key", { type: "object", properties: { aws: { type: "string", title: "AWS access key" } } }, "aws"],
    ["authToken", { type: "object", properties: { authToken: { type: "string" } } }, "authToken"],
    ["client-secret", { type: "object", properties: { "client-secret": { type: "string" } } }, "client-secret"],
  ])("refuses a field that asks for a secret: %s", (_what, schema, field) => {
    expect(formSchema(schema)).toMatchObject({ refused: "secret", field });
  });

  it("does not take ordinary names for secrets", () => {
    for (const name of ["max_tokens", "key", "sortKey", "keyboard", "tokensUsed", "passage", "secretary_name"]) {
      expect(secretReason(name, { type: "string" }), name).toBeUndefined();
    }
  });
});

describe("formContent", () => {
  const form = formOf({
    type: "object",
    properties: {
      name: { type: "string" },
      size: { type: "integer" },
      ratio: { type: "number" },
      ok: { type: "boolean" },
      colour: { type: "string", enum: ["red", "blue"] },
      tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
    },
    required: ["name"],
  });

  it("keeps the form's fields of the right type and drops the rest", () => {
    expect(formContent(form, { name: "Ann", size: 3, ratio: 0.5, ok: false, colour: "red", tags: ["b"], extra: "dropped" })).toEqual({
      content: { name: "Ann", size: 3, ratio: 0.5, ok: false, colour: "red", tags: ["b"] },
    });
  });

  it.each([
    [{ size: 3 }, "required field name is missing"],
    [{ name: 1 }, "field name is not a string"],
    [{ name: "Ann", size: 2.5 }, "field size is not a whole number"],
    [{ name: "Ann", ok: "yes" }, "field ok is not true or false"],
    [{ name: "Ann", colour: "green" }, "field colour is not one of its choices"],
    [{ name: "Ann", tags: ["c"] }, "field tags is not a list of its choices"],
    [["Ann"], "the answer is not an object"],
  ])("says what does not fit: %j", (content, problem) => {
    expect(formContent(form, content)).toEqual({ problem });
  });

  it("takes no content as an empty answer, which fits a form with nothing required", () => {
    expect(formContent(formOf({ type: "object", properties: { note: { type: "string" } } }), undefined)).toEqual({ content: {} });
  });
});
