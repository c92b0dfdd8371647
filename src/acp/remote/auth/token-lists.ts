// Where bearer tokens come from when a person runs `weft serve`: a tokens file, one
// `token principal-id` a line, or the WEFT_TOKENS variable, `token:principal,token2:principal2`.
// Both give the map bearerTokens() takes. Errors name the line or entry, never the token.

import { readFile, stat } from "node:fs/promises";

import { bearerTokenPattern } from "./bearer-credential.js";
import { InvalidTokensError } from "./invalid-tokens-error.js";
import { errorMessage } from "../../../errors/error-message.js";

/** What a tokens file holds: each token and the id of the principal it stands for. */
export interface TokensFile {
  tokens: Map<string, string>;
  /**
   * Set when people other than the file's owner may read or change it (its mode has group or
   * other bits): a sentence to log. The file is still used; see readTokensFile.
   */
  warning: string | undefined;
}

/**
 * Reads a tokens file: one `token principal-id` a line, separated by spaces or tabs; blank lines
 * and lines starting with `#` are skipped. Several tokens may stand for one principal; a token
 * given twice is an error, as is a line without exactly two fields, a token with characters a
 * bearer token cannot carry, and a file with no tokens at all. Each error names the file and line.
 *
 * A file that its group or others can read or write is used, with a `warning` to log, rather than
 * refused: secrets mounted by Kubernetes or Docker are commonly 0644 or 0444 inside a container
 * that nobody else shares, and refusing them would send people to turn auth off instead.
 */
export async function readTokensFile(path: string): Promise<TokensFile> {
  let text: string;
  let mode: number;
  try {
    [text, mode] = await Promise.all([readFile(path, "utf8"), stat(path).then((stats) => stats.mode)]);
  } catch (error) {
    throw new InvalidTokensError(`Cannot read the tokens file ${path}: ${errorMessage(error)}`, { source: path, cause: error });
  }
  const tokens = new TokenList(path, "line");
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((raw, index) => {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) {
        return;
      }
      const fields = line.split(/[ \t]+/);
      if (fields.length !== 2) {
        throw new InvalidTokensError(`${path} line ${index + 1}: expected "token principal-id", found ${fields.length} field${fields.length === 1 ? "" : "s"}.`, {
          source: path,
          line: index + 1,
        });
      }
      tokens.add(fields[0] as string, fields[1] as string, index + 1);
    });
  const open = process.platform !== "win32" && (mode & 0o077) !== 0;
  return {
    tokens: tokens.finish(),
    warning: open ? `The tokens file ${path} can be read or changed by people other than its owner (mode ${(mode & 0o777).toString(8).padStart(4, "0")}); chmod 600 it.` : undefined,
  };
}

/**
 * Reads a token list from one string, as WEFT_TOKENS gives it: `token:principal-id` entries
 * separated by commas, spaces around them ignored. The token ends at the first colon, so a
 * principal id may hold colons of its own (`github:alice`). The same rules as a tokens file apply;
 * errors name the entry by its place in the list.
 */
export function parseTokenList(value: string, source = "WEFT_TOKENS"): Map<string, string> {
  const tokens = new TokenList(source, "entry");
  value.split(",").forEach((raw, index) => {
    const entry = raw.trim();
    if (entry === "") {
      return;
    }
    const colon = entry.indexOf(":");
    if (colon === -1) {
      throw new InvalidTokensError(`${source} entry ${index + 1}: expected "token:principal-id", found no colon.`, { source, line: index + 1 });
    }
    tokens.add(entry.slice(0, colon).trim(), entry.slice(colon + 1).trim(), index + 1);
  });
  return tokens.finish();
}

/** The checks both forms share, as tokens are added one by one. */
class TokenList {
  private readonly tokens = new Map<string, string>();
  private readonly places = new Map<string, number>();

  constructor(
    private readonly source: string,
    private readonly unit: "line" | "entry",
  ) {}

  add(token: string, principalId: string, place: number): void {
    const where = `${this.source} ${this.unit} ${place}`;
    if (token === "") {
      throw new InvalidTokensError(`${where}: the token is empty.`, { source: this.source, line: place });
    }
    if (!bearerTokenPattern.test(token)) {
      throw new InvalidTokensError(`${where}: the token has characters a bearer token cannot carry (letters, digits and -._~+/ then any =).`, { source: this.source, line: place });
    }
    if (principalId === "") {
      throw new InvalidTokensError(`${where}: the principal id is empty.`, { source: this.source, line: place });
    }
    const earlier = this.places.get(token);
    if (earlier !== undefined) {
      throw new InvalidTokensError(`${where} repeats the token of ${this.unit} ${earlier}; each token must stand for one principal.`, { source: this.source, line: place });
    }
    this.tokens.set(token, principalId);
    this.places.set(token, place);
  }

  finish(): Map<string, string> {
    if (this.tokens.size === 0) {
      throw new InvalidTokensError(`${this.source} has no tokens, so nobody could get in.`, { source: this.source });
    }
    return this.tokens;
  }
}
