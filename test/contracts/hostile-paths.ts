// The hostile paths every file tool must survive, written once and run for each way the tools
// reach files: on disk (an editor without fs) and through the editor's fs (a test editor that reads
// and writes the real disk itself, following links as an editor would). The agent is the coding
// agent fixture in a child process, its model a fake server that makes the calls; each case asserts
// that nothing outside the project was read (its text reaches neither the model nor the editor, and
// the editor is never asked for a path outside or with a link in it) or written (the outside tree is
// byte for byte as it was, and no file appears where a dangling link pointed). Some sessions have a
// second directory (ACP's additionalDirectories): the same rules hold for it, and it is reached only
// by the sessions that have it.

import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import * as acp from "@agentclientprotocol/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { AgentProcess, stopAndCheck } from "../support/agent-process.js";
import { FakeModelServer, type FakeReply } from "../../src/testing/fake-model-server.js";

export interface HostilePathsOptions {
  /** Shown in the suite's name. */
  name: string;
  /** `disk`: the editor offers no fs, the tools use the disk. `editor`: every read and write goes through fs/*. */
  access: "disk" | "editor";
}

/** Text that is only in files outside the project: it must never reach the model or the editor. */
const SECRET = "OUTSIDE-SECRET";
/** The first line of /etc/passwd on Linux. */
const PASSWD = "root:x:0:0";

interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** The five file tools, each aimed at `path`. */
function everyTool(path: string): ToolCall[] {
  return [
    { name: "read_file", arguments: { path } },
    { name: "write_file", arguments: { path, content: "PLANTED\n" } },
    // Text both outside files hold, so an edit that got out would change them.
    { name: "edit_file", arguments: { path, old_text: "in a", new_text: "PWNED" } },
    { name: "list_files", arguments: { path, recursive: true } },
    { name: "search_files", arguments: { pattern: "SECRET|root|.", path } },
  ];
}

interface Turn {
  /** What the model saw as each call's result, in call order. */
  results: string[];
  /** The permission requests' titles, by the index of the call they were for. */
  approvals: Map<number, string>;
}

export function describeHostilePaths(options: HostilePathsOptions): void {
  describe(`Hostile paths: ${options.name}`, () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "weft-hostile-")));
    const project = join(base, "project");
    const outside = join(base, "outside");
    const second = join(base, "second");
    const scripts = new Map<string, ToolCall[]>();
    const editorPaths: string[] = [];
    const editorTexts: string[] = [];
    const agents: AgentProcess[] = [];
    const servers: FakeModelServer[] = [];
    let agent: AgentProcess;
    let model: FakeModelServer;
    let turns = 0;

    beforeAll(async () => {
      buildTree(project, outside, second);
      model = await FakeModelServer.start((request) => {
        const lastUser = request.messages.findLastIndex((message) => message.role === "user");
        const prompt = String(request.messages[lastUser]?.content);
        const done = request.messages.slice(lastUser).filter((message) => message.role === "tool").length;
        const call = scripts.get(prompt)?.[done];
        const reply: FakeReply = call ? { toolCalls: [{ name: call.name, arguments: call.arguments, id: `${prompt.replace(" ", "-")}-${done}` }] } : { text: "done" };
        return reply;
      });
      servers.push(model);
      const capabilities: acp.ClientCapabilities = options.access === "editor" ? { fs: { readTextFile: true, writeTextFile: true } } : {};
      // The test editor answers fs on the real disk as an editor would: whatever path it is given,
      // links followed. Every path and every text it hands back is kept for the checks.
      const configure = (app: acp.ClientApp) =>
        app
          .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
            editorPaths.push(params.path);
            let content: string;
            try {
              content = readFileSync(params.path, "utf8");
            } catch {
              throw acp.RequestError.resourceNotFound(params.path);
            }
            editorTexts.push(content);
            if (params.line || params.limit) {
              const first = (params.line ?? 1) - 1;
              content = content.split("\n").slice(first, params.limit ? first + params.limit : undefined).join("\n");
            }
            return { content };
          })
          .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
            editorPaths.push(params.path);
            editorTexts.push(params.content);
            mkdirSync(dirname(params.path), { recursive: true });
            writeFileSync(params.path, params.content);
            return {};
          });
      agent = AgentProcess.start({ fixture: "coding-agent.ts", env: { FAKE_MODEL_URL: model.url }, ...(options.access === "editor" ? { configure } : {}) });
      agents.push(agent);
      await agent.initialize(capabilities);
    });

    afterAll(async () => {
      expect(await stopAndCheck(agents, servers)).toEqual([]);
      rmSync(base, { recursive: true, force: true });
    });

    /**
     * Runs the calls in one turn of a new session (with the second directory too when asked) and
     * checks that nothing outside was read or written.
     */
    async function run(calls: ToolCall[], session: { withSecond?: boolean } = {}): Promise<Turn> {
      const before = snapshot(outside);
      const requestsBefore = model.requests.length;
      const updatesBefore = agent.updates.length;
      const permissionsBefore = agent.permissions.length;
      const editorBefore = editorPaths.length;
      const turn = turns++;
      const prompt = `case ${turn}`;
      // The model makes the calls one at a time; call ids are `case-<turn>-<index>`.
      scripts.set(prompt, calls);
      const { sessionId } = await agent.agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [], ...(session.withSecond ? { additionalDirectories: [second] } : {}) });
      expect((await agent.prompt(sessionId, prompt)).stopReason).toBe("end_turn");

      const last = model.requests.at(-1);
      const results = calls.map((_call, index) => String(last?.messages.find((message) => message.role === "tool" && message.tool_call_id === `case-${turn}-${index}`)?.content));
      const approvals = new Map<number, string>();
      for (const permission of agent.permissions.slice(permissionsBefore)) {
        const index = Number(/^case-\d+-(\d+)/.exec(permission.toolCall.toolCallId)?.[1]);
        approvals.set(index, permission.toolCall.title ?? "");
      }

      // Nothing outside was written: the outside tree is exactly as it was.
      expect(snapshot(outside)).toEqual(before);
      // Nothing outside was read: its text reached neither the model, nor the editor in an update,
      // nor the editor's answers; and the editor was asked only for real paths inside the project.
      const seen = JSON.stringify([model.requests.slice(requestsBefore), agent.updates.slice(updatesBefore), editorTexts.slice(editorBefore)]);
      expect(leaks(seen)).toEqual([]);
      const roots = session.withSecond ? [project, second] : [project];
      for (const path of editorPaths.slice(editorBefore)) {
        expect(roots.some((root) => isRealPathInside(root, path)), `the editor was asked for ${path}`).toBe(true);
      }
      return { results, approvals };
    }

    const refused: Array<[string, string, { throughLink?: boolean | undefined }?]> = [
      ["a relative path up and out", "../outside/secret.txt"],
      ["a deeper climb", "docs/../../outside/secret.txt"],
      ["an absolute path outside", join(outside, "secret.txt")],
      ["/etc/passwd", "/etc/passwd"],
      ["a file:// URI outside", `file://${join(outside, "secret.txt")}`],
      ["a symlinked file out, relative target", "out-file-relative", { throughLink: true }],
      ["a symlinked file out, absolute target", "out-file-absolute", { throughLink: true }],
      ["a symlink to /etc/passwd", "passwd", { throughLink: true }],
      ["a symlinked directory out", "out-dir", { throughLink: true }],
      ["a path through a symlinked directory out", "out-dir/inner.txt", { throughLink: true }],
      ["a path through an absolute symlinked directory out", "out-dir-absolute/inner.txt", { throughLink: true }],
      ["a dangling link whose target is outside, relative", "dangling-out", { throughLink: true }],
      ["a dangling link whose target is outside, absolute", "dangling-out-absolute", { throughLink: true }],
      ["a dangling link to a directory outside, and a path below it", "dangling-out-dir/new.txt", { throughLink: true }],
      ["a chain of links that ends outside", "chain-out-1", { throughLink: true }],
      ["a .. after a link out (inside as text, outside on disk)", "out-dir/../secret.txt", { throughLink: true }],
      ["a Windows drive path", "C:\\Windows\\win.ini"],
      ["a Windows drive path with forward slashes", "C:/outside/secret.txt"],
      ["a Windows UNC path", "\\\\server\\share\\secret.txt"],
      ["a file:// URI with a drive letter", "file:///C:/Windows/win.ini"],
    ];

    it.each(refused)("refuses %s for every tool", async (_name, path, flags) => {
      const { results, approvals } = await run(everyTool(path));
      for (const result of results) {
        expect(result).toMatch(/^Error: Refused: /);
      }
      // The person asked to approve a write or an edit through a link is told where it leads.
      for (const index of [1, 2]) {
        const title = approvals.get(index) ?? "";
        if (flags?.throughLink) {
          expect(title).toMatch(/ → .*\(outside the project; it will be refused\)$/);
        } else {
          expect(title).not.toContain("→");
        }
      }
      for (const name of ["planted-dangling.txt", "planted-dangling-absolute.txt", "planted-dir"]) {
        expect(readdirSync(outside)).not.toContain(name);
      }
    });

    const refusedFromSecond: Array<[string, () => string]> = [
      ["a climb out of the second directory", () => join(second, "..", "outside", "secret.txt")],
      ["a deeper climb out of the second directory", () => join(second, "lib", "..", "..", "outside", "secret.txt")],
      ["a relative climb out of the project that passes the second directory by", () => "../second/../outside/secret.txt"],
      ["a symlinked file out of the second directory, relative target", () => join(second, "out-file")],
      ["a symlinked file out of the second directory, absolute target", () => join(second, "out-file-absolute")],
      ["a path through a symlinked directory out of the second directory", () => join(second, "out-dir", "inner.txt")],
      ["a dangling link out of the second directory", () => join(second, "dangling-out")],
      ["a file:// URI of a link out of the second directory", () => `file://${join(second, "out-file")}`],
      ["a link from the project into the second directory, then up and out", () => "to-second/../../outside/secret.txt"],
      ["an absolute path outside both", () => join(outside, "secret.txt")],
    ];

    it.each(refusedFromSecond)("with a second directory, refuses %s for every tool", async (_name, path) => {
      const { results } = await run(everyTool(path()), { withSecond: true });
      for (const result of results) {
        expect(result).toMatch(/^Error: Refused: /);
      }
      expect(readdirSync(outside)).not.toContain("planted-second.txt");
    });

    it("with a second directory, reads, writes, edits, lists and searches in it, by absolute path and through links between the two", async () => {
      const shared = join(second, "lib", "shared.txt");
      const { results } = await run(
        [
          { name: "read_file", arguments: { path: shared } },
          { name: "read_file", arguments: { path: "to-second/shared.txt" } },
          { name: "read_file", arguments: { path: join(second, "back-to-project") } },
          { name: "read_file", arguments: { path: "../second/lib/shared.txt" } },
          { name: "write_file", arguments: { path: join(second, "lib", "new.txt"), content: "new in the second directory\n" } },
          { name: "edit_file", arguments: { path: `file://${shared}`, old_text: "second directory", new_text: "second directory, edited" } },
          { name: "list_files", arguments: { path: second, recursive: true } },
          { name: "search_files", arguments: { pattern: "edited", path: second } },
        ],
        { withSecond: true },
      );
      expect(results.slice(0, 4)).toEqual(["shared, in the second directory\n", "shared, in the second directory\n", "inside\n", "shared, in the second directory\n"]);
      results.splice(3, 1);
      expect(results[3]).toBe(`Created ${join(second, "lib", "new.txt")} (2 lines).`);
      expect(readFileSync(join(second, "lib", "new.txt"), "utf8")).toBe("new in the second directory\n");
      expect(results[4]).toBe(`Edited ${shared}: replaced 1 occurrence.`);
      expect(readFileSync(shared, "utf8")).toBe("shared, in the second directory, edited\n");
      const listing = (results[5] ?? "").split("\n");
      expect(listing).toEqual(expect.arrayContaining([`${join(second, "lib")}/`, shared, join(second, "lib", "new.txt")]));
      expect(listing.filter((line) => /outside|secret|inner/.test(line))).toEqual([]);
      expect(results[6]).toBe(`${shared}:1: shared, in the second directory, edited`);
      if (options.access === "editor") {
        expect(editorPaths).toEqual(expect.arrayContaining([shared, join(second, "lib", "new.txt")]));
      }
      writeFileSync(shared, "shared, in the second directory\n");
      rmSync(join(second, "lib", "new.txt"));
    });

    it("without the second directory, refuses every path into it, as outside", async () => {
      for (const path of [join(second, "lib", "shared.txt"), "to-second/shared.txt", "../second/lib/shared.txt"]) {
        const { results } = await run(everyTool(path));
        for (const result of results) {
          expect(result).toMatch(/^Error: Refused: /);
        }
      }
    });

    it("keeps a path with backslashes inside the project as a file name", async () => {
      const { results } = await run(everyTool("..\\outside\\secret.txt"));
      // On disk the tool says so; an editor answers with its own error.
      expect(results[0]).toMatch(options.access === "disk" ? /^Error: \.\.\\outside\\secret\.txt does not exist\.$/ : /^Error: The editor refused fs\/read_text_file: Resource not found/);
      expect(readFileSync(join(project, "..\\outside\\secret.txt"), "utf8")).toBe("PLANTED\n");
      rmSync(join(project, "..\\outside\\secret.txt"));
    });

    it("reads, writes and edits through links that stay inside, and says where they lead when asking", async () => {
      const { results, approvals } = await run([
        { name: "read_file", arguments: { path: "in-link" } },
        { name: "read_file", arguments: { path: "in-dir-link/real.txt" } },
        { name: "read_file", arguments: { path: "in-dir-link/../inside.txt" } },
        { name: "write_file", arguments: { path: "dangling-in", content: "created through a link\n" } },
        { name: "edit_file", arguments: { path: "chain-in-1", old_text: "chain target", new_text: "edited through a chain" } },
        { name: "write_file", arguments: { path: "docs/plain.txt", content: "plain\n" } },
      ]);
      expect(results.slice(0, 3)).toEqual(["inside, real\n", "inside, real\n", "inside\n"]);
      expect(results[3]).toBe("Created dangling-in → docs/created.txt (2 lines).");
      expect(readFileSync(join(project, "docs/created.txt"), "utf8")).toBe("created through a link\n");
      expect(lstatSync(join(project, "dangling-in")).isSymbolicLink()).toBe(true);
      expect(results[4]).toBe("Edited chain-in-1 → docs/chain-target.txt: replaced 1 occurrence.");
      expect(readFileSync(join(project, "docs/chain-target.txt"), "utf8")).toBe("edited through a chain\n");
      expect(approvals.get(3)).toBe("Write dangling-in → docs/created.txt");
      expect(approvals.get(4)).toBe("Edit chain-in-1 → docs/chain-target.txt");
      // A plain path: the tool's own title, with no arrow.
      expect(approvals.get(5)).toBe("Write docs/plain.txt");
      if (options.access === "editor") {
        expect(editorPaths).toEqual(expect.arrayContaining([join(project, "docs/real.txt"), join(project, "docs/created.txt"), join(project, "docs/chain-target.txt")]));
      }
    });

    it("lists and searches a tree with links out, showing nothing from outside", async () => {
      const { results } = await run([
        { name: "list_files", arguments: { recursive: true } },
        { name: "search_files", arguments: { pattern: "SECRET|root:|inside" } },
        { name: "list_files", arguments: { path: "in-dir-link" } },
        { name: "search_files", arguments: { pattern: "inside", path: "in-dir-link" } },
      ]);
      const listing = (results[0] ?? "").split("\n");
      expect(listing).toEqual(expect.arrayContaining(["docs/", "docs/real.txt", "in-link -> docs/real.txt", "in-dir-link -> docs/", "inside.txt"]));
      expect(listing.filter((line) => /out|passwd|inner/.test(line))).toEqual([]);
      expect((results[1] ?? "").split("\n").sort()).toEqual(["docs/real.txt:1: inside, real", "inside.txt:1: inside"]);
      expect(results[2]).toMatch(/^docs\/chain-target\.txt\n.*docs\/real\.txt/s);
      expect(results[3]).toBe("docs/real.txt:1: inside, real");
    });
  });
}

/** The project, with every kind of link, and beside it the outside directory and a second one. */
function buildTree(project: string, outside: string, second: string): void {
  mkdirSync(join(outside, "dir"), { recursive: true });
  writeFileSync(join(outside, "secret.txt"), `${SECRET} in a file\n`);
  writeFileSync(join(outside, "dir", "inner.txt"), `${SECRET} in a directory\n`);
  mkdirSync(join(project, "docs"), { recursive: true });
  writeFileSync(join(project, "inside.txt"), "inside\n");
  writeFileSync(join(project, "docs", "real.txt"), "inside, real\n");
  writeFileSync(join(project, "docs", "chain-target.txt"), "chain target\n");
  const links: Array<[string, string]> = [
    ["out-file-relative", "../outside/secret.txt"],
    ["out-file-absolute", join(outside, "secret.txt")],
    ["passwd", "/etc/passwd"],
    ["out-dir", "../outside/dir"],
    ["out-dir-absolute", join(outside, "dir")],
    ["dangling-out", "../outside/planted-dangling.txt"],
    ["dangling-out-absolute", join(outside, "planted-dangling-absolute.txt")],
    ["dangling-out-dir", "../outside/planted-dir"],
    ["chain-out-2", "out-file-relative"],
    ["chain-out-1", "chain-out-2"],
    ["in-link", "docs/real.txt"],
    ["in-dir-link", "docs"],
    ["dangling-in", "docs/created.txt"],
    ["chain-in-2", join(project, "docs", "chain-target.txt")],
    ["chain-in-1", "chain-in-2"],
  ];
  for (const [name, target] of links) {
    symlinkSync(target, join(project, name));
  }
  // The second directory: a file, links out of it, and links between it and the project.
  mkdirSync(join(second, "lib"), { recursive: true });
  writeFileSync(join(second, "lib", "shared.txt"), "shared, in the second directory\n");
  const secondLinks: Array<[string, string]> = [
    ["out-file", "../outside/secret.txt"],
    ["out-file-absolute", join(outside, "secret.txt")],
    ["out-dir", "../outside/dir"],
    ["dangling-out", "../outside/planted-second.txt"],
    ["back-to-project", join(project, "inside.txt")],
  ];
  for (const [name, target] of secondLinks) {
    symlinkSync(target, join(second, name));
  }
  symlinkSync("../second/lib", join(project, "to-second"));
}

/** Every entry under `directory` with its text (or a link's target), to compare before and after. */
function snapshot(directory: string): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  const visit = (relative: string) => {
    for (const name of readdirSync(join(directory, relative)).sort()) {
      const path = join(relative, name);
      const info = lstatSync(join(directory, path));
      if (info.isSymbolicLink()) {
        entries.push([path, `-> ${readlinkSync(join(directory, path))}`]);
      } else if (info.isDirectory()) {
        entries.push([`${path}/`, ""]);
        visit(path);
      } else {
        entries.push([path, readFileSync(join(directory, path), "utf8")]);
      }
    }
  };
  visit("");
  return entries;
}

/** Each place outside text appears in `seen`, with a little of what is around it. */
function leaks(seen: string): string[] {
  const found: string[] = [];
  for (const marker of [SECRET, PASSWD]) {
    for (let index = seen.indexOf(marker); index !== -1; index = seen.indexOf(marker, index + 1)) {
      found.push(seen.slice(Math.max(0, index - 80), index + 40));
    }
  }
  return found;
}

/** True when `path` is inside `root` and has no link in it (nor in its nearest existing parent). */
function isRealPathInside(root: string, path: string): boolean {
  if (!path.startsWith(`${root}/`)) {
    return false;
  }
  let probe = path;
  for (;;) {
    try {
      return realpathSync(probe) === probe;
    } catch {
      probe = dirname(probe);
    }
  }
}
