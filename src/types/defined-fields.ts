// Copying optional fields under exactOptionalPropertyTypes, where an optional field must be absent
// rather than undefined: the fields of an object that have a value, and none of the rest.

/** The fields `keys` of `source` (all its own, by default) that are not undefined, in the order of `keys`. */
export function definedFields<T extends object, K extends keyof T = keyof T>(source: T, keys?: readonly K[]): { [P in K]?: Exclude<T[P], undefined> } {
  const fields: { [P in K]?: Exclude<T[P], undefined> } = {};
  for (const key of keys ?? (Object.keys(source) as K[])) {
    const value = source[key];
    if (value !== undefined) {
      fields[key] = value as Exclude<T[K], undefined>;
    }
  }
  return fields;
}
