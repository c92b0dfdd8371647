// A project's own instructions for agents: the AGENTS.md files from the session's directory up to
// the root of its repository (the nearest directory above it with a `.git`; without one, only the
// session's directory). Read from disk before every model call, so an edit is seen on the next turn.

import { lstat, open, realpath, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";

/** The name of the file read in each directory. */
export const PROJECT_INSTRUCTIONS_FILE = "AGENTS.md";

/** The most characters read from one AGENTS.md, and from all of them together. */
export const PROJECT_INSTRUCTIONS_LIMITS = { file: 32 * 1024, total: 64 * 1024 } as const;

/** An AGENTS.md that was read: where, and what it says (cut to the limits). */
export interface ProjectInstructionsFile {
  path: string;
  text: string;
}

/**
 * The directories whose AGENTS.md count for `cwd`, outermost first: from the repository root
 * (the nearest directory with a `.git` entry, a file in a worktree or a directory) down to `cwd`,
 * or `cwd` alone when no directory above it has one.
 */
export async function instructionDirectories(cwd: string): Promise<string[]> {
  const chain: string[] = [];
  for (let directory = cwd; ; directory = dirname(directory)) {
    chain.push(directory);
    if (await exists(join(directory, ".git"))) {
      return chain.reverse();
    }
    if (dirname(directory) === directory) {
      return [cwd];
    }
  }
}

/**
 * Reads the AGENTS.md files for `cwd`, outermost first. A file that is missing, unreadable or not
 * a regular file is skipped, and so is a link that leads outside the repository (its text would go
 * to the model). Each is cut to the per-file limit; past the total limit the outermost go first,
 * since the nearer a file is to the session's directory, the more it says about the work there.
 */
export async function readProjectInstructions(cwd: string): Promise<ProjectInstructionsFile[]> {
  const directories = await instructionDirectories(cwd);
  const root = directories[0] ?? cwd;
  const found: ProjectInstructionsFile[] = [];
  let budget = PROJECT_INSTRUCTIONS_LIMITS.total;
  for (const directory of [...directories].reverse()) {
    const text = await readInstructions(join(directory, PROJECT_INSTRUCTIONS_FILE), root);
    if (text === undefined || text.trim() === "" || budget <= 0) {
      continue;
    }
    const limit = Math.min(PROJECT_INSTRUCTIONS_LIMITS.file, budget);
    budget -= Math.min(text.length, limit);
    found.push({ path: join(directory, PROJECT_INSTRUCTIONS_FILE), text: cut(text, limit) });
  }
  return found.reverse();
}

/** The project's instructions as a section of the model's instructions; "" when there are none. */
export async function projectInstructionsSection(cwd: string): Promise<string> {
  const files = await readProjectInstructions(cwd);
  if (files.length === 0) {
    return "";
  }
  const parts = files.map((file) => `From ${relative(cwd, file.path) || PROJECT_INSTRUCTIONS_FILE} (${file.path}):\n${file.text.trimEnd()}`);
  return `The project's own instructions for agents (${PROJECT_INSTRUCTIONS_FILE}, outermost first; follow them, and where they disagree the nearer one wins):\n\n${parts.join("\n\n")}`;
}

async function readInstructions(path: string, root: string): Promise<string | undefined> {
  try {
    const entry = await lstat(path);
    if (entry.isSymbolicLink()) {
      const real = await realpath(path);
      const realRoot = await realpath(root);
      if (real !== realRoot && !real.startsWith(`${realRoot}${sep}`)) {
        return undefined;
      }
    }
    // Checked before opening: opening a FIFO would wait for a writer.
    if (!(await stat(path)).isFile()) {
      return undefined;
    }
    // Only the start of a large file is read: a character is at most 4 bytes of UTF-8.
    const file = await open(path, "r");
    try {
      if (!(await file.stat()).isFile()) {
        return undefined;
      }
      const buffer = Buffer.alloc(PROJECT_INSTRUCTIONS_LIMITS.file * 4 + 4);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      return buffer.subarray(0, bytesRead).toString("utf8");
    } finally {
      await file.close();
    }
  } catch {
    return undefined;
  }
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}\n[… cut: the file goes on past ${limit} characters]`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
