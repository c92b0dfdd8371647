import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { bearerTokens } from "./bearer-tokens.js";
import { InvalidTokensError } from "./invalid-tokens-error.js";
import { parseTokenList, readTokensFile } from "./token-lists.js";

const directory = mkdtempSync(join(tmpdir(), "weft-tokens-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let count = 0;
function tokensFile(text: string, mode = 0o600): string {
  const path = join(directory, `tokens-${++count}`);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

async function refusal(path: string): Promise<InvalidTokensError> {
  const error: unknown = await readTokensFile(path).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(InvalidTokensError.isInstance(error)).toBe(true);
  return error as InvalidTokensError;
}

describe("readTokensFile", () => {
  it("reads one token and principal id a line, skipping comments and blank lines", async () => {
    const path = tokensFile(["# the team", "", "tok-alice alice", "  tok-bob\tbob  ", "# retired: tok-old carol", "tok-alice-2 alice", ""].join("\n"));
    const { tokens, warning } = await readTokensFile(path);
    expect([...tokens]).toEqual([
      ["tok-alice", "alice"],
      ["tok-bob", "bob"],
      ["tok-alice-2", "alice"],
    ]);
    expect(warning).toBeUndefined();
  });

  it("reads a file with CRLF line ends", async () => {
    const { tokens } = await readTokensFile(tokensFile("tok-a a\r\ntok-b b\r\n"));
    expect([...tokens.keys()]).toEqual(["tok-a", "tok-b"]);
  });

  it("gives tokens bearerTokens() accepts", async () => {
    const { tokens } = await readTokensFile(tokensFile("tok-a a\n"));
    const request = new Request("http://127.0.0.1/acp", { headers: { authorization: "Bearer tok-a" } });
    expect(await bearerTokens(tokens)(request)).toEqual({ id: "a" });
  });

  it("names the line of a line without exactly two fields", async () => {
    const path = tokensFile("# header\ntok-a a\ntok-b\n");
    const error = await refusal(path);
    expect(error.line).toBe(3);
    expect(error.message).toContain(`${path} line 3`);
    expect(error.message).not.toContain("tok-b");
    expect((await refusal(tokensFile("tok-a a extra\n"))).message).toContain("line 1");
  });

  it("names both lines of a token given twice", async () => {
    const error = await refusal(tokensFile("tok-a a\ntok-b b\n\ntok-a c\n"));
    expect(error.line).toBe(4);
    expect(error.message).toMatch(/line 4 repeats the token of line 1/);
  });

  it("refuses a token with characters a header cannot carry, and a file with no tokens", async () => {
    expect((await refusal(tokensFile("tok,a a\n"))).message).toMatch(/line 1.*cannot carry/);
    expect((await refusal(tokensFile("# nothing yet\n\n"))).message).toMatch(/no tokens/);
  });

  it("says so when it cannot read the file", async () => {
    const error = await refusal(join(directory, "missing"));
    expect(error.message).toMatch(/Cannot read the tokens file .*missing/);
  });

  it.skipIf(process.platform === "win32")("warns, and still reads, a file others may read", async () => {
    const { tokens, warning } = await readTokensFile(tokensFile("tok-a a\n", 0o644));
    expect(tokens.size).toBe(1);
    expect(warning).toMatch(/mode 0644.*chmod 600/);
    expect((await readTokensFile(tokensFile("tok-a a\n", 0o640))).warning).toMatch(/mode 0640/);
  });
});

describe("parseTokenList", () => {
  it("reads token:principal entries separated by commas", () => {
    expect([...parseTokenList("tok-a:alice, tok-b:bob,")]).toEqual([
      ["tok-a", "alice"],
      ["tok-b", "bob"],
    ]);
  });

  it("ends the token at the first colon, so an id may hold colons", () => {
    expect([...parseTokenList("tok-a:github:alice")]).toEqual([["tok-a", "github:alice"]]);
  });

  it("names the entry of a malformed or repeated one, and refuses an empty list", () => {
    expect(() => parseTokenList("tok-a:alice,tok-b")).toThrow(/WEFT_TOKENS entry 2: expected "token:principal-id"/);
    expect(() => parseTokenList("tok-a:alice,:bob")).toThrow(/entry 2: the token is empty/);
    expect(() => parseTokenList("tok-a:alice,tok-b:")).toThrow(/entry 2: the principal id is empty/);
    expect(() => parseTokenList("tok-a:alice,tok-a:bob")).toThrow(/entry 2 repeats the token of entry 1/);
    expect(() => parseTokenList(" , ")).toThrow(/WEFT_TOKENS has no tokens/);
  });
});
