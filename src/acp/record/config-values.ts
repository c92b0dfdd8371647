// The config values a session keeps, by option id: the record holds them, the surface declares
// the options they are values of (surface/config-options.ts).

/** A session's config values, by option id; the mode is under `mode`. */
export type AcpConfigValues = Record<string, string | boolean>;
