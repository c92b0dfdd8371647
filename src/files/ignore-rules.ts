// Which files a listing or a search skips: what .gitignore files say (in the directory and each
// directory above, down from the session's root), and always the .git directory. A small matcher
// for the patterns people write: *, **, ?, [abc], a leading or trailing /, and ! to re-include.
// A .gitignore that is a symbolic link is not read (as git does not): it may lead anywhere.

import { join } from "node:path";

import { readChecked } from "./disk-files.js";

interface Rule {
  pattern: RegExp;
  negate: boolean;
  directoryOnly: boolean;
  /** Matched against the path relative to the .gitignore's directory (else against the name alone). */
  anchored: boolean;
}

export interface RuleSet {
  /** The directory (relative to the root, "" for the root) whose .gitignore these rules came from. */
  base: string;
  rules: Rule[];
}

export async function readRules(root: string, directory: string): Promise<RuleSet | undefined> {
  const text = await readChecked(join(root, directory, ".gitignore")).catch(() => undefined);
  if (text === undefined) {
    return undefined;
  }
  const rules = text.split(/\r?\n/).flatMap((line) => {
    const rule = parseRule(line);
    return rule ? [rule] : [];
  });
  return rules.length > 0 ? { base: directory, rules } : undefined;
}

function parseRule(line: string): Rule | undefined {
  let text = line.replace(/(?<!\\)\s+$/, "");
  if (text === "" || text.startsWith("#")) {
    return undefined;
  }
  const negate = text.startsWith("!");
  if (negate) {
    text = text.slice(1);
  }
  const directoryOnly = text.endsWith("/");
  if (directoryOnly) {
    text = text.slice(0, -1);
  }
  const anchored = text.includes("/");
  if (text.startsWith("/")) {
    text = text.slice(1);
  }
  return { pattern: globToRegExp(text), negate, directoryOnly, anchored };
}

export function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index] as string;
    if (character === "*") {
      if (glob[index + 1] === "*") {
        const slashAfter = glob[index + 2] === "/";
        source += slashAfter ? "(?:.*/)?" : ".*";
        index += slashAfter ? 2 : 1;
      } else {
        source += "[^/]*";
      }
    } else if (character === "?") {
      source += "[^/]";
    } else if (character === "[") {
      const end = glob.indexOf("]", index + 1);
      if (end > index) {
        source += `[${glob.slice(index + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        index = end;
      } else {
        source += "\\[";
      }
    } else if (character === "\\" && index + 1 < glob.length) {
      source += escapeRegExp(glob[index + 1] as string);
      index++;
    } else {
      source += escapeRegExp(character);
    }
  }
  return new RegExp(`^${source}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** True when `path` (relative to the root, with forward slashes) is ignored by the rule sets in force. */
export function isIgnored(path: string, isDirectory: boolean, sets: readonly RuleSet[]): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (name === ".git") {
    return true;
  }
  let ignored = false;
  for (const set of sets) {
    const relative = set.base === "" ? path : path.startsWith(`${set.base}/`) ? path.slice(set.base.length + 1) : undefined;
    if (relative === undefined) {
      continue;
    }
    for (const rule of set.rules) {
      if (rule.directoryOnly && !isDirectory) {
        continue;
      }
      if (rule.pattern.test(rule.anchored ? relative : name)) {
        ignored = !rule.negate;
      }
    }
  }
  return ignored;
}
