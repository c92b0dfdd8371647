// Our declarations as users compile against them: every optional property also accepts undefined,
// so a project with exactOptionalPropertyTypes can pass `{ baseURL: process.env.X }` and the like.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

import { repoRoot } from "./support/agent-process.js";

function declarationFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      return entry.name === "bundle" ? [] : declarationFiles(path);
    }
    return entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

function acceptsUndefined(type: ts.TypeNode): boolean {
  if (type.kind === ts.SyntaxKind.UndefinedKeyword || type.kind === ts.SyntaxKind.AnyKeyword || type.kind === ts.SyntaxKind.UnknownKeyword) {
    return true;
  }
  if (ts.isUnionTypeNode(type)) {
    return type.types.some(acceptsUndefined);
  }
  return ts.isParenthesizedTypeNode(type) && acceptsUndefined(type.type);
}

/** `file:line name` for each optional property whose type leaves out undefined. */
function strictOptionals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isPropertySignature(node) || ts.isPropertyDeclaration(node)) && node.questionToken && node.type && !acceptsUndefined(node.type)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${relative(repoRoot, file)}:${line} ${node.name.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the published declarations", () => {
  const files = declarationFiles(join(repoRoot, "dist"));

  it("are there to check (npm test builds dist first)", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it("let every optional property be undefined", () => {
    expect(files.flatMap(strictOptionals)).toEqual([]);
  });
});
