// ESLint 9 flat config: typescript-eslint's type-aware recommended rules, and the layering of src/ as import walls
// (CONTRIBUTING.md "Where things go"). A wall is a `no-restricted-imports` pattern per folder.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** An import wall: the folders (as path segments) a file may not import from, and why. */
// src/core/lint/ is the shared rule machinery every domain uses, never a domain's own `lint` module.
const wall = (segments, message) => ({
  regex: `(^|/)(?<!core/)(${segments.join("|")})(/|\\.js$)`,
  message,
});

const DOMAINS_AND_CLI = wall(
  ["capabilities", "events", "mcp", "cli", "registry"],
  "src/core is below every domain and the CLI: pass what it needs in.",
);
const CLI = wall(
  ["cli"],
  "a domain never imports src/cli: the CLI imports the domain's commands (src/core/command.ts).",
);
const REGISTRY = wall(
  ["registry"],
  "src/registry.ts is the composition root: receive the registry as a parameter.",
);

/**
 * The language server (floor 5) checks through the domains' front doors (`check-run.ts`,
 * `run-events.ts`) and the library, never through the CLI or a domain's commands, which belong to
 * the CLI. One exception, by name: `explainRefusal` (capabilities/commands/explain.ts), the
 * explanation of a refusal that `caplint explain` prints and the code action shows.
 */
const LSP_WALLS = [
  wall(
    ["cli"],
    "the language server is below the CLI: src/cli imports src/lsp, not the other way round",
  ),
  {
    regex: "(^|/)commands/(?!explain\\.js$)",
    message:
      "a domain's commands/ are the CLI's: the language server goes through the domain's front door (check-run.ts, run-events.ts) or the library",
  },
];

/**
 * Queries (capabilities/queries/) answer questions about the loaded model with the engine: the
 * commands, renderers, reports and the language server ask them. They never run the linter or a
 * rule (rules/support/, the helpers rules share, is allowed) and know nothing of who asks.
 */
const QUERY_WALLS = [
  CLI,
  REGISTRY,
  wall(
    ["lint", "check-run", "commands", "render", "html-report", "lsp"],
    "queries answer from the model and the engine: the linter, commands, renderers, reports and the language server use them, not the other way round",
  ),
  {
    regex: "(^|/)rules/(?!support/)",
    message: "queries run no rule: share the helper through rules/support/ (or the engine)",
  },
];

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "prebuilt/",
      "node_modules/",
      "editors/vscode/node_modules/",
      "coverage/",
      "fixtures/",
      "examples/",
      "**/*.cjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Type-aware rules read the TypeScript project (tsconfig.json: src/, test/, vitest.config.ts).
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // JavaScript files are in no TypeScript project: the rules that need types stay off there.
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // recommendedTypeChecked, less four rules that disagree with a deliberate house idiom:
    rules: {
      // A rule's context hands out functions bound to the rule (`report`, `on`: core/lint/run-rules.ts),
      // meant to be destructured, as ESLint's own rule context is; so is `run.report`.
      "@typescript-eslint/unbound-method": "off",
      // An `async` function without `await` is kept where its contract is a promise (a reader among
      // async readers, `close()`, a test double): dropping `async` would turn its throws synchronous.
      "@typescript-eslint/require-await": "off",
      // `String(value)` of a value read from user JSON is how messages show it: checked, or any text will do.
      "@typescript-eslint/no-base-to-string": "off",
      // The MCP SDK types McpError.code as a number and compares it with its own ErrorCode enum.
      "@typescript-eslint/no-unsafe-enum-comparison": "off",
    },
  },
  {
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        Buffer: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        TextDecoder: "readonly",
        TextEncoder: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        structuredClone: "readonly",
        performance: "readonly",
      },
    },
    rules: {
      // TypeScript's noUnusedLocals/noUnusedParameters already check these, with fewer false positives.
      "@typescript-eslint/no-unused-vars": "off",
      // Terminal-safe text handling matches control characters on purpose.
      "no-control-regex": "off",
    },
  },
  {
    // The bin is CommonJS on purpose (bin/package.json): the ES module loader costs start-up time.
    files: ["bin/**/*.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { require: "readonly", __dirname: "readonly", module: "writable" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The VS Code extension is CommonJS, as VS Code loads extensions (editors/vscode/package.json "main").
    files: ["editors/vscode/**/*.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { require: "readonly", __dirname: "readonly", module: "writable" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Tests read JSON of any shape (JSON.parse of a command's output) and match output with literal
    // spacing: the rules against `any` would ask a type for every parsed report.
    files: ["test/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "no-regex-spaces": "off",
    },
  },
  {
    files: ["src/core/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [DOMAINS_AND_CLI] }] },
  },
  {
    files: ["src/capabilities/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [CLI, REGISTRY, wall(["events", "mcp"], "domains do not import each other")] },
      ],
    },
  },
  {
    files: ["src/events/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            CLI,
            REGISTRY,
            wall(["capabilities", "mcp"], "domains do not import each other"),
          ],
        },
      ],
    },
  },
  {
    files: ["src/mcp/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            CLI,
            REGISTRY,
            wall(["capabilities", "events"], "domains do not import each other"),
          ],
        },
      ],
    },
  },
  {
    files: ["src/capabilities/engine/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            CLI,
            REGISTRY,
            wall(
              ["rules", "lint", "commands", "render", "html-report", "fix-project"],
              "the engine is pure resolution: data in, data out; rules, the linter, commands and reports use it, not the other way round",
            ),
          ],
        },
      ],
    },
  },
  {
    files: ["src/capabilities/rules/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            CLI,
            REGISTRY,
            wall(
              ["lint", "commands", "render", "html-report", "fix-project"],
              "rules see the model and the engine; the linter runs them",
            ),
          ],
        },
      ],
    },
  },
  {
    files: ["src/capabilities/dangers/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            CLI,
            REGISTRY,
            wall(
              ["rules", "lint", "commands", "render", "html-report", "fix-project"],
              "dangers are data computed from the resolution: the rule and the report read them",
            ),
          ],
        },
      ],
    },
  },
  {
    files: ["src/capabilities/model/**", "src/capabilities/load/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            CLI,
            REGISTRY,
            wall(
              ["diagnostics", "rules", "lint", "engine", "commands", "render", "html-report"],
              "the model and the loaders are the ground floor: they know nothing of findings or rules",
            ),
          ],
        },
      ],
    },
  },
  {
    files: ["src/lsp/**"],
    rules: { "no-restricted-imports": ["error", { patterns: LSP_WALLS }] },
  },
  {
    files: ["src/capabilities/queries/**"],
    rules: { "no-restricted-imports": ["error", { patterns: QUERY_WALLS }] },
  },
);
