// Lint rules: the typescript-eslint recommended set with type information, plus the house rules
// that matter most here (no floating promises, no console in library code, braces everywhere) and
// the layer rules of docs/architecture.md.

import { dirname, join, relative, resolve, sep } from "node:path";

import js from "@eslint/js";
import tseslint from "typescript-eslint";

const sourceRoot = resolve(import.meta.dirname, "src");

/**
 * The folders of src/ that the code of each layer may import, besides its own. Tests are not held
 * to it: they run a layer on real drivers and fakes. `cli/` (the top, which wires everything) and
 * `testing/` are not listed, so nothing checks them.
 */
const layers = {
  types: [],
  errors: [],
  process: [],
  "store-core": ["types", "errors"],
  graph: ["types", "errors", "store-core"],
  stores: ["types", "errors", "store-core"],
  agent: ["types", "errors", "store-core", "graph"],
  // Paths inside a session's roots, shared by the server's file tools and `weft chat`.
  files: ["types", "errors"],
  // The ACP server: it knows nothing of the products built on it.
  acp: ["types", "errors", "store-core", "graph", "agent", "process", "files"],
  // The products `weft acp` and `weft chat`, on the protocol; neither imports the other.
  "coding-agent": ["types", "errors", "store-core", "graph", "agent", "models", "process", "acp", "files"],
  chat: ["types", "errors", "store-core", "graph", "agent", "models", "process", "acp", "files"],
};

/**
 * Inside src/acp/, the folders of each concern and what they may import besides themselves, bottom
 * up (docs/architecture.md has the map). The top folder's files are keyed by name: the editor
 * bridge's contract sits low, serve-acp.ts high; index.ts (the entry) is not listed, so it may
 * import any of them.
 */
const acpBelow = (...names) => names;
const acpLayers = {
  wire: [],
  errors: [],
  record: acpBelow("errors"),
  "editor-bridge.ts": acpBelow("wire", "errors", "record"),
  mapping: acpBelow("wire", "errors", "record", "editor-bridge.ts"),
  session: acpBelow("wire", "errors", "record", "editor-bridge.ts", "mapping"),
  asking: acpBelow("wire", "errors", "record", "editor-bridge.ts", "mapping", "session"),
  surface: acpBelow("wire", "errors", "record", "editor-bridge.ts", "mapping", "session", "asking"),
  turn: acpBelow("wire", "errors", "record", "editor-bridge.ts", "mapping", "session", "asking", "surface"),
  server: acpBelow("wire", "errors", "record", "editor-bridge.ts", "mapping", "session", "asking", "surface", "turn"),
  "serve-acp.ts": acpBelow("wire", "errors", "record", "editor-bridge.ts", "mapping", "session", "asking", "surface", "turn", "server"),
  // Beside the stack: the editor's tools, and serving over HTTP (with who may call).
  editor: acpBelow("wire", "errors", "record", "editor-bridge.ts", "mapping"),
  "remote/auth": acpBelow("errors"),
  remote: acpBelow("wire", "errors", "record", "editor-bridge.ts", "mapping", "session", "asking", "surface", "turn", "server", "serve-acp.ts", "remote/auth"),
};

/** The concern of a path inside src/acp/ (see acpLayers). */
function acpConcern(pathInAcp) {
  const parts = pathInAcp.split(sep);
  if (parts.length === 1) {
    // A file of the top folder, by its source name (an import names it .js).
    return parts[0].replace(/\.js$/, ".ts");
  }
  return parts[0] === "remote" && parts[1] === "auth" && parts.length > 2 ? "remote/auth" : parts[0];
}

/** Reports an import (static, dynamic, re-export or `import("…")` type) that leaves its layer. */
const layerImports = {
  meta: {
    type: "problem",
    schema: [],
    messages: {
      outside: "src/{{layer}}/ may import from {{allowed}}, not from src/{{target}} (see Layers in docs/architecture.md).",
      insideAcp: "src/acp/{{from}} may import from {{allowed}} in src/acp/, not from {{to}} (see The ACP layer in docs/architecture.md).",
    },
  },
  create(context) {
    const [layer] = relative(sourceRoot, context.filename).split(sep);
    const allowed = layers[layer];
    if (allowed === undefined) {
      return {};
    }
    const check = (source) => {
      if (typeof source?.value !== "string" || !source.value.startsWith(".")) {
        return;
      }
      const target = relative(sourceRoot, resolve(dirname(context.filename), source.value));
      const [folder] = target.split(sep);
      if (folder === "acp" && layer === "acp") {
        checkInsideAcp(source, target);
        return;
      }
      if (folder === ".." || folder === layer || allowed.includes(folder)) {
        return;
      }
      const names = allowed.length === 0 ? "nothing else in src/" : allowed.map((name) => `src/${name}/`).join(", ");
      context.report({ node: source, messageId: "outside", data: { layer, allowed: names, target: target.split(sep).join("/") } });
    };
    const checkInsideAcp = (source, target) => {
      const from = acpConcern(relative(join(sourceRoot, "acp"), context.filename));
      const to = acpConcern(relative("acp", target));
      const below = acpLayers[from];
      if (below === undefined || from === to || below.includes(to)) {
        return;
      }
      context.report({ node: source, messageId: "insideAcp", data: { from, to, allowed: below.length === 0 ? "nothing else in src/acp/" : below.join(", ") } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.source),
    };
  },
};

/** The types of a session's record: outside its owner, nothing changes a value of these. */
const recordTypes = new Set(["AcpSessionRecord", "AcpSessionRecordView"]);
/** Methods that change an array in place. */
const changingMethods = new Set(["push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin"]);

/**
 * Reports a change to a session's record made outside its owner (session/stored-session.ts): an
 * assignment, `delete`, `++`/`--`, an array-changing call or `Object.assign` whose target is the
 * record or reached through it (`record.title`, `record.history.push(…)`, `record.turn.input`), by
 * the type of what is changed, so an alias (`const record = session.record`) is caught too. The
 * record's view is read only already; this also holds a plain record held outside the owner.
 */
const recordOwner = {
  meta: {
    type: "problem",
    schema: [],
    messages: {
      changed: "Only StoredSession (src/acp/session/stored-session.ts) changes a session's record: ask it with one of its methods (beginTurn, addMessages, setTitle…).",
    },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program) {
      return {};
    }
    const checker = services.program.getTypeChecker();
    const isRecord = (node) => {
      const type = checker.getNonNullableType(checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node)));
      const name = type.aliasSymbol?.getName() ?? type.getSymbol()?.getName();
      return recordTypes.has(name);
    };
    // True when `node` is the record, or a member reached from it without a call between.
    const inRecord = (node) => {
      for (let current = node; ; current = current.object) {
        if (isRecord(current)) {
          return true;
        }
        if (current.type !== "MemberExpression") {
          return false;
        }
      }
    };
    const checkTarget = (target) => {
      if (target.type === "MemberExpression" && inRecord(target.object)) {
        context.report({ node: target, messageId: "changed" });
      }
    };
    return {
      AssignmentExpression: (node) => checkTarget(node.left),
      UpdateExpression: (node) => checkTarget(node.argument),
      UnaryExpression: (node) => {
        if (node.operator === "delete") {
          checkTarget(node.argument);
        }
      },
      CallExpression: (node) => {
        const callee = node.callee;
        if (callee.type !== "MemberExpression" || callee.computed || callee.property.type !== "Identifier") {
          return;
        }
        if (changingMethods.has(callee.property.name) && inRecord(callee.object)) {
          context.report({ node, messageId: "changed" });
        } else if (callee.object.type === "Identifier" && callee.object.name === "Object" && callee.property.name === "assign" && node.arguments[0] && inRecord(node.arguments[0])) {
          context.report({ node, messageId: "changed" });
        }
      },
    };
  },
};

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "scratch/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      curly: ["error", "all"],
      eqeqeq: ["error", "smart"],
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // Library code never writes to the console: stdout is the protocol.
    files: ["src/**/*.ts"],
    rules: { "no-console": "error" },
  },
  {
    // Suites live in test files or under test/: the source never runs a test or reaches into test/.
    files: ["src/**/*.ts"],
    ignores: ["src/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "vitest", message: "Only test files import vitest: shared suites go under test/contracts/." }],
          patterns: [{ group: ["**/test/*", "**/test/**"], message: "src/ does not import test/." }],
        },
      ],
    },
  },
  {
    files: ["src/**/*.ts"],
    ignores: ["src/**/*.test.ts"],
    plugins: { weft: { rules: { "layer-imports": layerImports, "record-owner": recordOwner } } },
    rules: { "weft/layer-imports": "error" },
  },
  {
    // One owner of a session's record: the rest of the ACP layer asks it for each change. The store
    // codecs in record/ build records from what is kept, and tests build the records they start from.
    files: ["src/acp/**/*.ts"],
    ignores: ["src/**/*.test.ts", "src/acp/record/**", "src/acp/session/stored-session.ts"],
    rules: { "weft/record-owner": "error" },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: "readonly", console: "readonly", URL: "readonly" },
    },
  },
);
