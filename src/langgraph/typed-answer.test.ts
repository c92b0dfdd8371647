// Answers in words read into a typed question's JSON Schema (as Zod writes it): the readings a
// person would mean, and what they are told when nothing fits.

import { describe, expect, it } from "vitest";
import { z } from "zod";

import type { JsonObject } from "../types/json.js";
import { howToAnswer, schemaProblem, typedAnswer } from "./typed-answer.js";

const schema = (zod: z.ZodType) => z.toJSONSchema(zod) as JsonObject;
const colour = schema(z.object({ colour: z.enum(["red", "green", "blue"]) }));
const trip = schema(z.object({ city: z.string(), nights: z.number().int().min(1).max(30), note: z.string().optional() }));

describe("typedAnswer", () => {
  it("reads a one-field answer as that field's value: a choice in any case, by its start or by its number", () => {
    expect(typedAnswer("Blue", colour)).toEqual({ fits: true, value: { colour: "blue" } });
    expect(typedAnswer("gr", colour)).toEqual({ fits: true, value: { colour: "green" } });
    expect(typedAnswer("1", colour)).toEqual({ fits: true, value: { colour: "red" } });
    expect(typedAnswer("colour: red", colour)).toEqual({ fits: true, value: { colour: "red" } });
  });

  it("reads several fields from JSON, `field: value` lines or pairs, or values in the schema's order", () => {
    const paris = { fits: true, value: { city: "Paris", nights: 3 } };
    expect(typedAnswer('{"city": "Paris", "nights": 3}', trip)).toEqual(paris);
    expect(typedAnswer("city: Paris\nnights: 3", trip)).toEqual(paris);
    expect(typedAnswer("City = Paris; nights = 3", trip)).toEqual(paris);
    expect(typedAnswer("Paris, 3", trip)).toEqual(paris);
    expect(typedAnswer("Paris, 3, by train", trip)).toEqual({ fits: true, value: { city: "Paris", nights: 3, note: "by train" } });
  });

  it("reads a schema that is not an object as its value: a number, a yes or no, a list", () => {
    expect(typedAnswer(" 12 ", { type: "integer" })).toEqual({ fits: true, value: 12 });
    expect(typedAnswer("Yes", { type: "boolean" })).toEqual({ fits: true, value: true });
    expect(typedAnswer("no", { type: "boolean" })).toEqual({ fits: true, value: false });
    expect(typedAnswer("a, b", { type: "array", items: { type: "string" } })).toEqual({ fits: true, value: ["a", "b"] });
    expect(typedAnswer("anything at all", { type: "string" })).toEqual({ fits: true, value: "anything at all" });
  });

  it("says in words why an answer does not fit, and how to answer", () => {
    expect(typedAnswer("purple", colour)).toEqual({ fits: false, problem: "That answer does not fit: colour must be one of: red, green, blue. Answer with colour, one of red, green, blue." });
    const howTrip = 'Answer with city (text), nights (a whole number from 1 to 30) and note (text, optional), as `field: value` lines or as JSON such as {"city":"…","nights":1}.';
    expect(typedAnswer("city: Oslo\nnights: 40", trip)).toEqual({ fits: false, problem: `That answer does not fit: nights must be at most 30. ${howTrip}` });
    expect(typedAnswer('{"city": "Oslo"}', trip)).toEqual({ fits: false, problem: `That answer does not fit: nights is missing. ${howTrip}` });
    expect(typedAnswer("somewhere warm", trip)).toEqual({ fits: false, problem: `That answer could not be read. ${howTrip}` });
    expect(typedAnswer("lots", { type: "integer", minimum: 2 })).toEqual({ fits: false, problem: "That answer does not fit: the answer must be a whole number. Answer with a whole number of at least 2." });
  });
});

describe("schemaProblem", () => {
  it("is undefined for a value that fits, else why it does not", () => {
    expect(schemaProblem({ colour: "red" }, colour)).toBeUndefined();
    expect(schemaProblem({ colour: "pink", extra: 1 }, colour)).toBe("That answer does not fit: extra is not one of its fields; colour must be one of: red, green, blue.");
  });
});

describe("howToAnswer", () => {
  it("names a one-field schema's field and what it takes", () => {
    expect(howToAnswer(schema(z.object({ when: z.string().describe("A date, like 2026-01-31") })))).toBe("Answer with when, text: A date, like 2026-01-31.");
  });
});
