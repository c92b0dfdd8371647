// The files a change to is asked about every time, whatever "always" answers a project has: the
// repository's own (`.git/`), environment files (`.env`, `.env.local`, `.envrc`), and weft's own
// configuration and state. No grant covers them, and accept-edits mode does not let them through.

import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, sep } from "node:path";

/** The protected paths in words, for labels and notes. */
export const PROTECTED_PATHS_NOTE = "`.git/`, `.env*` and weft's own files still ask";

/**
 * Why a path is protected, or undefined when it is not. `relative` is the path relative to the
 * project with forward slashes (`src/.env`); `real`, when known, the absolute path it really leads
 * to, checked against weft's configuration and state directories.
 */
export function protectedPath(relative: string, real?: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const parts = relative.split(/[\\/]/).filter((part) => part !== "" && part !== ".");
  if (parts.some((part) => part.toLowerCase() === ".git")) {
    return "it is in the repository's .git directory";
  }
  if ((parts.at(-1) ?? "").toLowerCase().startsWith(".env")) {
    return "it is an environment file";
  }
  if (real !== undefined && weftDirectories(env).some((directory) => real === directory || real.startsWith(`${directory}${sep}`))) {
    return "it is one of weft's own files";
  }
  return undefined;
}

/**
 * Where weft keeps its configuration and state: `$XDG_CONFIG_HOME/weft` and `$XDG_STATE_HOME/weft`,
 * or their defaults, each also as it really is when a link leads there.
 */
export function weftDirectories(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = env.HOME?.trim() && isAbsolute(env.HOME) ? env.HOME : homedir();
  const base = (name: string, fallback: string) => {
    const value = env[name]?.trim();
    return value && isAbsolute(value) ? value : join(home, fallback);
  };
  const directories = [join(base("XDG_CONFIG_HOME", ".config"), "weft"), join(base("XDG_STATE_HOME", join(".local", "state")), "weft")];
  return directories.flatMap((directory) => {
    try {
      const real = realpathSync.native(directory);
      return real === directory ? [directory] : [directory, real];
    } catch {
      return [directory];
    }
  });
}
