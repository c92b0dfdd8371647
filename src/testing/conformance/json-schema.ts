// A small JSON Schema (2020-12) validator for the keywords the ACP schema uses: type, const, enum,
// properties, required, additionalProperties, items, allOf, anyOf, oneOf, not, minimum, maximum,
// minLength and local $refs. The kit ships with weftjs, so it checks lines with what the package
// already carries at run time: the SDK's zod schemas are not exported, and they are lenient on
// purpose (a wrong optional field is dropped, not refused), so they cannot judge a line.
// Formats (uint16, uri …) are not checked, as the SDK's own JSON-schema tests do not.

type Schema = boolean | { [keyword: string]: unknown };

/** One reason a value fails a schema: where (a JSON pointer into the value) and what. */
export interface SchemaIssue {
  path: string;
  message: string;
}

export class JsonSchema {
  constructor(private readonly document: { $defs: Record<string, unknown> }) {}

  /** What is wrong with `value` as the definition `name` (or the whole document); empty when nothing is. */
  problems(value: unknown, name?: string): SchemaIssue[] {
    const schema = name === undefined ? (this.document as Schema) : (this.document.$defs[name] as Schema | undefined);
    if (schema === undefined) {
      throw new Error(`The schema has no definition ${name}.`);
    }
    return this.check(schema, value, "");
  }

  private check(schema: Schema, value: unknown, path: string): SchemaIssue[] {
    if (schema === true) {
      return [];
    }
    if (schema === false) {
      return [{ path, message: "is not allowed" }];
    }
    const issues: SchemaIssue[] = [];
    if (typeof schema.$ref === "string") {
      issues.push(...this.check(this.resolve(schema.$ref), value, path));
    }
    if (schema.type !== undefined && !typeMatches(schema.type as string | string[], value)) {
      return [...issues, { path, message: `must be ${[schema.type].flat().join(" or ")}` }];
    }
    if ("const" in schema && !sameJson(schema.const, value)) {
      issues.push({ path, message: `must be ${JSON.stringify(schema.const)}` });
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => sameJson(allowed, value))) {
      issues.push({ path, message: `must be one of ${schema.enum.map((allowed) => JSON.stringify(allowed)).join(", ")}` });
    }
    if (typeof value === "number") {
      if (typeof schema.minimum === "number" && value < schema.minimum) {
        issues.push({ path, message: `must be >= ${schema.minimum}` });
      }
      if (typeof schema.maximum === "number" && value > schema.maximum) {
        issues.push({ path, message: `must be <= ${schema.maximum}` });
      }
    }
    if (typeof value === "string" && typeof schema.minLength === "number" && [...value].length < schema.minLength) {
      issues.push({ path, message: `must have at least ${schema.minLength} characters` });
    }
    if (isObject(value)) {
      issues.push(...this.checkObject(schema, value, path));
    }
    if (Array.isArray(value) && schema.items !== undefined) {
      value.forEach((item, index) => issues.push(...this.check(schema.items as Schema, item, `${path}/${index}`)));
    }
    if (Array.isArray(schema.allOf)) {
      for (const part of schema.allOf as Schema[]) {
        issues.push(...this.check(part, value, path));
      }
    }
    if (Array.isArray(schema.anyOf)) {
      issues.push(...this.someOf(schema.anyOf as Schema[], value, path, "any"));
    }
    if (Array.isArray(schema.oneOf)) {
      const tag = (schema.discriminator as { propertyName?: unknown } | undefined)?.propertyName;
      const tagged = typeof tag === "string" ? this.tagged(schema.oneOf as Schema[], tag, value, path) : undefined;
      issues.push(...(tagged ?? this.someOf(schema.oneOf as Schema[], value, path, "one")));
    }
    if (schema.not !== undefined && this.check(schema.not as Schema, value, path).length === 0) {
      issues.push({ path, message: "matches a schema it must not" });
    }
    return issues;
  }

  private checkObject(schema: { [keyword: string]: unknown }, value: Record<string, unknown>, path: string): SchemaIssue[] {
    const issues: SchemaIssue[] = [];
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[]) {
      if (!(key in value)) {
        issues.push({ path, message: `must have property ${JSON.stringify(key)}` });
      }
    }
    for (const [key, item] of Object.entries(value)) {
      const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (property !== undefined) {
        issues.push(...this.check(property, item, `${path}/${key}`));
      } else if (schema.additionalProperties !== undefined) {
        issues.push(...this.check(schema.additionalProperties as Schema, item, `${path}/${key}`));
      }
    }
    return issues;
  }

  /**
   * anyOf (at least one branch) or oneOf (exactly one). When none matches, the issues of the
   * branch that got furthest, as a person reading "must match a schema in anyOf" learns nothing.
   */
  private someOf(branches: Schema[], value: unknown, path: string, how: "any" | "one"): SchemaIssue[] {
    const results: SchemaIssue[][] = [];
    for (const branch of branches) {
      results.push(this.check(branch, value, path));
      if (how === "any" && results.at(-1)?.length === 0) {
        return [];
      }
    }
    const matched = results.filter((issues) => issues.length === 0).length;
    if (how === "one" && matched > 1) {
      return [{ path, message: `matches ${matched} schemas of a oneOf, not exactly one` }];
    }
    if (matched > 0) {
      return [];
    }
    return results.reduce((best, issues) => (depth(issues) > depth(best) ? issues : best));
  }

  /**
   * A oneOf told apart by a tag property (`sessionUpdate`, `type`): the issues of the branch the
   * value's tag names, so that a bad field is named, not the first branch's tag. Undefined when
   * the value has no string tag, for someOf to judge.
   */
  private tagged(branches: Schema[], tag: string, value: unknown, path: string): SchemaIssue[] | undefined {
    const name = isObject(value) ? value[tag] : undefined;
    if (typeof name !== "string") {
      return undefined;
    }
    const constOf = (branch: Schema) => (typeof branch === "object" ? (branch.properties as Record<string, { const?: unknown }> | undefined)?.[tag]?.const : undefined);
    const branch = branches.find((candidate) => constOf(candidate) === name);
    if (branch === undefined) {
      const names = branches.map(constOf).filter((known) => known !== undefined);
      return names.length === branches.length ? [{ path: `${path}/${tag}`, message: `must be one of ${names.map((known) => JSON.stringify(known)).join(", ")}` }] : undefined;
    }
    return this.check(branch, value, path);
  }

  private resolve(reference: string): Schema {
    const name = /^#\/\$defs\/(.+)$/.exec(reference)?.[1];
    const schema = name === undefined ? undefined : (this.document.$defs[decodeURIComponent(name)] as Schema | undefined);
    if (schema === undefined) {
      throw new Error(`The schema has no definition for $ref ${reference}.`);
    }
    return schema;
  }
}

/** How deep in the value the first issue lies: the branch of a union that got furthest. */
function depth(issues: SchemaIssue[]): number {
  return Math.max(-1, ...issues.map((issue) => issue.path.split("/").length));
}

function typeMatches(type: string | string[], value: unknown): boolean {
  return [type].flat().some((name) => {
    switch (name) {
      case "null":
        return value === null;
      case "integer":
        return Number.isInteger(value);
      case "number":
        return typeof value === "number" && Number.isFinite(value);
      case "object":
        return isObject(value);
      case "array":
        return Array.isArray(value);
      default:
        return typeof value === name;
    }
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) {
    return true;
  }
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null || Array.isArray(left) !== Array.isArray(right)) {
    return false;
  }
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  return leftKeys.length === rightKeys.length && leftKeys.every((key) => sameJson((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]));
}

/** Issues as one line of text, such as `/update/content/text must be string`. */
export function issuesText(issues: readonly SchemaIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path || "the message"} ${issue.message}`)
    .join("; ");
}
