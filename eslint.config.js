// Lint rules: the typescript-eslint recommended set with type information, plus the house rules
// that matter most here (no floating promises, no console in library code, braces everywhere) and
// the layer rules of docs/architecture.md.

import { dirname, relative, resolve, sep } from "node:path";

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
  // The ACP server: it knows nothing of the products built on it.
  protocols: ["types", "errors", "store-core", "graph", "agent", "process"],
  // The products `weft acp` and `weft chat`, on the protocol; neither imports the other.
  "coding-agent": ["types", "errors", "store-core", "graph", "agent", "models", "process", "protocols"],
  chat: ["types", "errors", "store-core", "graph", "agent", "models", "process", "protocols"],
};

/** Reports an import (static, dynamic, re-export or `import("…")` type) that leaves its layer. */
const layerImports = {
  meta: {
    type: "problem",
    schema: [],
    messages: { outside: "src/{{layer}}/ may import from {{allowed}}, not from src/{{target}} (see Layers in docs/architecture.md)." },
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
      if (folder === ".." || folder === layer || allowed.includes(folder)) {
        return;
      }
      const names = allowed.length === 0 ? "nothing else in src/" : allowed.map((name) => `src/${name}/`).join(", ");
      context.report({ node: source, messageId: "outside", data: { layer, allowed: names, target: target.split(sep).join("/") } });
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
    plugins: { weft: { rules: { "layer-imports": layerImports } } },
    rules: { "weft/layer-imports": "error" },
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
