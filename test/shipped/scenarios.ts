/**
 * One scenario table for every command (markdownlint-cli2's habit): each row is run on both hosts,
 * in-process `main()` and the shipped bin in a child process (test/shipped/scenarios.test.ts), so a
 * bundling or packaging mistake in any command shows up as a failing row. New commands add rows here.
 *
 * `cwd` is relative to the repository root; `{tmp}` in an argument is replaced by a fresh temporary
 * folder per run. `stdout`/`stderr` are exact strings, patterns, or functions that assert.
 */
export type Expectation = string | RegExp | ((text: string) => void);

export interface Scenario {
  name: string;
  args: string[];
  cwd?: string;
  stdin?: string;
  code: number;
  stdout?: Expectation;
  /** Default: empty. */
  stderr?: Expectation;
  /** Files the run must have written, relative to `{tmp}`, with an assertion on their text. */
  files?: Record<string, (text: string) => void>;
}

const CLI = "fixtures/cli";
const DEMO = "examples/demo-app";
const QUERIES = "fixtures/queries";

function json(check: (value: any) => void): (text: string) => void {
  return (text) => check(JSON.parse(text));
}

function expectTrue(condition: boolean, what: string): void {
  if (!condition) throw new Error(`expected ${what}`);
}

export const SCENARIOS: Scenario[] = [
  // Top level.
  { name: "--version", args: ["--version"], code: 0, stdout: /^\d+\.\d+\.\d+\n$/ },
  {
    name: "--help lists every command",
    args: ["--help"],
    code: 0,
    stdout: (out) => {
      for (const command of [
        "check",
        "schema",
        "rules",
        "access",
        "who-can",
        "matrix",
        "resolve",
        "diff",
        "explain",
        "permissions",
        "least-privilege",
        "report",
        "events",
        "mcp",
        "lsp",
      ])
        expectTrue(new RegExp(`^  ${command} `, "m").test(out), `${command} in --help`);
    },
  },
  // The server itself is driven through the bin by test/integrations/lsp/*.test.ts (it speaks LSP over the process's own stdio).
  {
    name: "lsp without --stdio is a usage error",
    args: ["lsp"],
    code: 2,
    stdout: "",
    stderr: "caplint: lsp: give --stdio (caplint lsp --stdio), as editors' clients start it\n",
  },
  {
    name: "an unknown option is a usage error",
    args: ["check", "--frobnicate"],
    cwd: CLI,
    code: 2,
    stdout: "",
    stderr: "caplint: --frobnicate: check has no such option; its options: caplint check --help\n",
  },
  // One error style for the whole command line (issue 33 item 4): `caplint: <what>: <why>; did you mean …?`, the flag named.
  {
    name: "a mistyped option: did-you-mean on the error's own line",
    args: ["check", "--formt", "json"],
    cwd: CLI,
    code: 2,
    stdout: "",
    stderr: "caplint: --formt: check has no such option; did you mean --format?\n",
  },
  {
    name: "an option of another command says whose it is",
    args: ["check", "--fail-on", "commands"],
    cwd: CLI,
    code: 2,
    stdout: "",
    stderr:
      "caplint: --fail-on: check has no such option (it is an option of diff); its options: caplint check --help\n",
  },
  {
    name: "a value not among the choices: the flag named, the nearest choice offered",
    args: ["-f", "jsn"],
    cwd: CLI,
    code: 2,
    stdout: "",
    stderr:
      'caplint: --format jsn: not one of stylish, compact, json, sarif, github; did you mean "json"?\n',
  },
  {
    name: "--max-warnings names the flag",
    args: ["check", "forms", "--max-warnings", "abc"],
    cwd: CLI,
    code: 2,
    stdout: "",
    stderr:
      "caplint: --max-warnings abc: expected a whole number (0 or more), or -1 for no limit\n",
  },
  {
    name: "diff --fail-on: an abbreviation gets its kind",
    args: ["diff", `${QUERIES}/app`, `${QUERIES}/app-v2`, "--fail-on", "cmds"],
    code: 2,
    stdout: "",
    stderr:
      'caplint: --fail-on cmds: "cmds" is not one of commands, origins, scopes, none; did you mean "commands"?\n',
  },
  {
    name: "an option without its value",
    args: ["check", "-f"],
    cwd: CLI,
    code: 2,
    stdout: "",
    stderr: "caplint: --format: needs a value (-f, --format <format>)\n",
  },
  {
    name: "check --help lists --debug (a global option)",
    args: ["check", "--help"],
    code: 0,
    stdout: (out) =>
      expectTrue(
        /^Global Options:\n[\s\S]*^ {2}--debug +print internal stack traces/m.test(out),
        "--debug under Global Options",
      ),
  },
  {
    name: "lsp takes no --output (it prints protocol messages only)",
    args: ["lsp", "--help"],
    code: 0,
    stdout: (out) =>
      expectTrue(!/--output|-o,/.test(out) && /--stdio/.test(out), "no -o in lsp --help"),
  },
  {
    name: "lsp -o is refused",
    args: ["lsp", "--stdio", "-o", "x.txt"],
    code: 2,
    stdout: "",
    stderr: "caplint: -o: lsp has no such option; its options: caplint lsp --help\n",
  },

  {
    name: "an unknown command gets a did-you-mean and exit 2, not a path check",
    args: ["chek", "--format", "compact"],
    cwd: CLI,
    code: 2,
    stdout: "",
    stderr:
      /^caplint: unknown command "chek"; did you mean "check"\? \(commands: [a-z, -]*\bcheck\b[a-z, -]*; a file or folder to check must exist\)\n$/,
  },
  {
    name: "an unknown command far from any: exit 2",
    args: ["frobnicate"],
    cwd: CLI,
    code: 2,
    stdout: "",
    stderr: /^caplint: unknown command "frobnicate" \(commands: [a-z, -]*\bcheck\b/,
  },
  {
    name: "a folder named like a word is still checked",
    args: ["forms"],
    cwd: CLI,
    code: 0,
    stdout: "4 files checked, no problems\n",
  },
  {
    name: "a missing path with an extension is a missing path",
    args: ["chek.json"],
    cwd: CLI,
    code: 2,
    stdout: "",
    stderr: "caplint: chek.json: no such file or directory\n",
  },

  // check
  {
    name: "check: a clean file",
    args: ["check", "forms/single.json"],
    cwd: CLI,
    code: 0,
    stdout: "1 file checked, no problems\n",
  },
  {
    name: "check: the three forms in JSON and TOML",
    args: ["check", "forms"],
    cwd: CLI,
    code: 0,
    stdout: "4 files checked, no problems\n",
  },
  {
    name: "check: stylish with code frame and help",
    args: ["check", "mixed-folder/typo.json"],
    cwd: CLI,
    code: 1,
    stdout: [
      "mixed-folder/typo.json",
      '  1:62  error  unknown permission "core:windw:default": the host has no core area "windw"  unknown-permission',
      '  > 1 | { "identifier": "typo", "windows": ["main"], "permissions": ["core:windw:default"] }',
      "      |                                                              ^^^^^^^^^^^^^^^^^^^^",
      '      help: did you mean "core:window:default", "core:menu:default" or "core:app:default"?',
      "",
      "✖ 1 problem (1 error, 0 warnings) in 1 file (1 checked)",
      "",
    ].join("\n"),
  },
  {
    name: "check: compact, a broken file does not hide the others",
    args: ["check", "--format", "compact", "mixed-folder"],
    cwd: CLI,
    code: 1,
    stdout: [
      "mixed-folder/broken.json:4:1: error invalid JSON: expected ']' at end of file [parse]",
      'mixed-folder/typo.json:1:62: error unknown permission "core:windw:default": the host has no core area "windw" [unknown-permission]',
      "",
    ].join("\n"),
  },
  {
    name: "check: json contract",
    args: ["check", "--format", "json", "mixed-folder/typo.json"],
    cwd: CLI,
    code: 1,
    stdout: json((out) => {
      expectTrue(out.summary.errors === 1 && out.summary.files === 1, "one error in one file");
      expectTrue(
        out.diagnostics[0].ruleId === "unknown-permission" &&
          out.diagnostics[0].line === 1 &&
          out.diagnostics[0].column === 62,
        "the finding at 1:62",
      );
    }),
  },
  {
    name: "check: sarif",
    args: ["check", "--format", "sarif", "mixed-folder/typo.json"],
    cwd: CLI,
    code: 1,
    stdout: json((log) => {
      expectTrue(
        log.version === "2.1.0" && log.runs[0].results.length === 1,
        "a SARIF 2.1.0 log with one result",
      );
      expectTrue(
        typeof log.runs[0].results[0].partialFingerprints?.["caplintFindingHash/v1"] === "string",
        "a partial fingerprint",
      );
    }),
  },
  {
    name: "check: github annotations",
    args: ["check", "--format", "github", "mixed-folder/typo.json"],
    cwd: CLI,
    code: 1,
    // From the repository root (this checkout), as GitHub reads it, not from the folder caplint ran in.
    stdout:
      /^::error file=fixtures\/cli\/mixed-folder\/typo\.json,line=1,endLine=1,col=62,endColumn=82,title=unknown-permission::/,
  },
  {
    name: "check: the example app (exit 1: mistakes on purpose)",
    args: ["check", "--app", DEMO, "--format", "compact"],
    code: 1,
    stdout: /src-tauri\/capabilities\/default\.json:\d+:\d+: error /,
  },
  {
    name: "check: the app in the working directory",
    args: ["--format", "compact"],
    cwd: DEMO,
    code: 1,
    stdout: /^src-tauri\/capabilities\//m,
  },
  {
    name: "check: --quiet keeps errors only",
    args: ["check", "-q", "--format", "compact", "suppressions/cap.json"],
    cwd: CLI,
    code: 0,
    stdout: "",
  },
  {
    name: "check: --rule wins over the config",
    args: ["check", "--format", "compact", ".", "--rule", "unknown-field=off"],
    cwd: `${CLI}/config`,
    code: 0,
    stdout: "",
  },
  {
    name: "check: the config may hold comments and trailing commas (JSONC), and the output names it",
    args: ["check", "--format", "json", "cap.json"],
    cwd: `${CLI}/jsonc-config`,
    code: 1,
    stdout: json((out) =>
      expectTrue(
        out.summary.config === "caplint.config.json" &&
          out.diagnostics.length === 1 &&
          out.diagnostics[0].ruleId === "unknown-field" &&
          out.diagnostics[0].severity === "error",
        "unknown-field raised to error by the commented config",
      ),
    ),
  },
  {
    name: "check: -c names the config",
    args: ["check", "-c", "config/caplint.config.json", "--format", "compact", "config/cap.json"],
    cwd: CLI,
    code: 1,
    stdout: /\[unknown-field\]\n$/,
  },
  {
    name: "check: a missing path",
    args: ["check", "does-not-exist.json"],
    cwd: CLI,
    code: 2,
    stdout: "",
    stderr: "caplint: does-not-exist.json: no such file or directory\n",
  },
  {
    name: "check: no app here",
    args: [],
    cwd: `${CLI}/forms`,
    code: 2,
    stdout: "",
    stderr: /^caplint: no app here/,
  },
  {
    name: "check: a bad --format lists the choices",
    args: ["check", "forms", "--format", "xml"],
    cwd: CLI,
    code: 2,
    stderr: /stylish/,
  },
  {
    name: "check: --max-warnings -1 is no limit, as in ESLint",
    args: [
      "check",
      "--rule",
      "unknown-permission=warning",
      "--max-warnings",
      "-1",
      "mixed-folder/typo.json",
    ],
    cwd: CLI,
    code: 0,
    stdout: /warning/,
  },
  {
    name: "check: --output writes the report atomically, exit code unchanged",
    args: ["check", "--format", "json", "-o", "{tmp}/report.json", "mixed-folder/typo.json"],
    cwd: CLI,
    code: 1,
    stdout: "",
    files: {
      "report.json": json((out) =>
        expectTrue(out.summary.errors === 1, "the JSON report in the file"),
      ),
    },
  },
  {
    name: "check: unknown-field does not suggest a field the object already has",
    args: ["check", "--format", "compact", "--only", "unknown-field", "typos.json"],
    cwd: "fixtures/capabilities/unknown-field/invalid",
    code: 0,
    stdout: (out) => {
      expectTrue(
        out.includes('unknown capability field "permisions"'),
        "the permisions typo reported",
      );
      expectTrue(
        !out.includes('did you mean "permissions"'),
        "no suggestion to write a second permissions",
      );
    },
  },
  {
    name: "check --fix-dry-run prints a diff and writes nothing",
    args: ["check", "--fix-dry-run", "--format", "compact", "case.json"],
    cwd: "fixtures/capabilities/invalid-platform/invalid",
    code: 1,
    stdout:
      /^--- a\/case\.json\n\+\+\+ b\/case\.json\n@@ [\s\S]*-  "platforms": \["macos", "Linux"[\s\S]*\+  "platforms": \["macOS", "linux"[\s\S]*\[invalid-platform\]\n$/,
  },

  {
    name: "check --fix-dry-run --format json: valid JSON, the diff inside it",
    args: ["check", "--fix-dry-run", "--format", "json", "case.json"],
    cwd: "fixtures/capabilities/invalid-platform/invalid",
    code: 1,
    stdout: json((out) => {
      expectTrue(out.fixes.length === 1 && out.fixes[0].file === "case.json", "one fixed file");
      expectTrue(
        out.fixes[0].diff.startsWith("--- a/case.json\n+++ b/case.json\n") &&
          out.fixes[0].diff.includes('+  "platforms": ["macOS", "linux"'),
        "its unified diff",
      );
      expectTrue(
        out.diagnostics.every((d: any) => d.ruleId !== "invalid-platform" || !d.fixable),
        "what is left after the fixes",
      );
    }),
  },
  {
    name: "check --fix-dry-run --format sarif is refused (a diff cannot go there)",
    args: ["check", "--fix-dry-run", "--format", "sarif", "case.json"],
    cwd: "fixtures/capabilities/invalid-platform/invalid",
    code: 2,
    stdout: "",
    stderr: /--fix-dry-run prints a diff, which sarif output cannot carry/,
  },

  {
    // The call fails with "plugin dialog not found" before any capability is looked at: one warning, the one that is true.
    name: "check: a call into a plugin the build lacks is reported once, as not in the build",
    args: ["check", "--format", "compact", "--app", "dialog-not-in-build"],
    cwd: "fixtures/capabilities/frontend-calls-unregistered-plugin/invalid",
    code: 0,
    stdout: (text) => {
      const findings = text.split("\n").filter((line) => /\[frontend-/.test(line));
      expectTrue(
        findings.length === 1 && findings[0]!.includes("[frontend-calls-unregistered-plugin]"),
        `one frontend finding, not ${JSON.stringify(findings)}`,
      );
    },
  },
  // check: standard input
  {
    name: "check -: a capability file from standard input",
    args: ["check", "-", "--format", "compact"],
    cwd: CLI,
    stdin: '{ "identifier": "typo", "windows": ["main"], "permissions": ["core:windw:default"] }\n',
    code: 1,
    stdout:
      '<stdin>:1:62: error unknown permission "core:windw:default": the host has no core area "windw" [unknown-permission]\n',
  },
  {
    name: "check - --stdin-filename names it (JSON)",
    args: ["check", "-", "--stdin-filename", "src-tauri/capabilities/main.json"],
    cwd: CLI,
    stdin: '{ "identifier": "main", "windows": ["main"], "permissions": ["core:default"] }\n',
    code: 0,
    stdout: "1 file checked, no problems\n",
  },
  {
    name: "check - --stdin-filename x.toml reads TOML",
    args: ["check", "-", "--stdin-filename", "caps/main.toml", "-f", "compact"],
    cwd: CLI,
    stdin: 'identifier = "main"\nwindows = ["main"]\npermissions = ["core:windw:default"]\n',
    code: 1,
    stdout:
      'caps/main.toml:3:16: error unknown permission "core:windw:default": the host has no core area "windw" [unknown-permission]\n',
  },
  {
    name: "check - --fix-dry-run shows the fixes of standard input",
    args: ["check", "-", "--fix-dry-run", "--format", "json"],
    cwd: CLI,
    stdin:
      '{ "identifier": "main", "windows": ["main"], "permissions": ["core:default"], "platforms": ["Linux"] }\n',
    code: 0,
    stdout: json((out) =>
      expectTrue(
        out.fixes[0].file === "<stdin>" &&
          out.fixes[0].diff.includes(
            '+{ "identifier": "main", "windows": ["main"], "permissions": ["core:default"], "platforms": ["linux"] }',
          ),
        "the fix as a diff",
      ),
    ),
  },
  {
    name: "check - --fix is refused",
    args: ["check", "-", "--fix"],
    cwd: CLI,
    stdin: "{}",
    code: 2,
    stdout: "",
    stderr: "caplint: --fix cannot write standard input back: use --fix-dry-run to see the fixes\n",
  },
  {
    name: "check --stdin-filename without - is a usage error",
    args: ["check", "forms", "--stdin-filename", "a.json"],
    cwd: CLI,
    code: 2,
    stdout: "",
    stderr: /--stdin-filename names standard input: add - to the paths/,
  },
  {
    name: "check - -: standard input once",
    args: ["check", "-", "-"],
    cwd: CLI,
    stdin: "{}",
    code: 2,
    stdout: "",
    stderr: "caplint: - (standard input) can be given once\n",
  },
  {
    name: "check -: broken input is a parse finding",
    args: ["check", "-", "--format", "compact"],
    cwd: CLI,
    stdin: '{ "identifier": "x",',
    code: 1,
    stdout: /^<stdin>:1:\d+: error invalid JSON: .* \[parse\]\n$/,
  },

  // schema
  {
    name: "schema: the draft-07 capability schema",
    args: ["schema"],
    cwd: CLI,
    code: 0,
    stdout: json((schema) => {
      expectTrue(schema.$schema === "http://json-schema.org/draft-07/schema#", "a draft-07 schema");
      expectTrue(
        JSON.stringify(schema.definitions.Capability.required) === '["identifier","permissions"]',
        "Capability requires identifier and permissions",
      );
    }),
  },

  {
    name: "schema --app: the app's own permissions join the identifiers",
    args: ["schema", "--app", "."],
    cwd: DEMO,
    code: 0,
    stdout: json((schema) =>
      expectTrue(
        schema.definitions.Identifier.anyOf[0].oneOf.some(
          (c: any) => c.const === "allow-greet" && typeof c.description === "string",
        ),
        "allow-greet with its description",
      ),
    ),
  },
  {
    name: "schema --events: the draft-07 schema of one event line",
    args: ["schema", "--events"],
    code: 0,
    stdout: json((schema) =>
      expectTrue(
        schema.$schema === "http://json-schema.org/draft-07/schema#" &&
          Object.keys(schema.definitions).length > 20,
        "the event schema",
      ),
    ),
  },
  {
    name: "schema -o writes the schema",
    args: ["schema", "-o", "{tmp}/capability.schema.json"],
    cwd: CLI,
    code: 0,
    stdout: "",
    files: {
      "capability.schema.json": json((schema) =>
        expectTrue(Array.isArray(schema.definitions.Identifier.anyOf), "the editor schema"),
      ),
    },
  },
  {
    name: "rules -o writes the list",
    args: ["rules", "-f", "json", "-o", "{tmp}/rules.json"],
    code: 0,
    stdout: "",
    files: { "rules.json": json((rows) => expectTrue(rows.length > 20, "every rule")) },
  },
  {
    name: "-o into a folder that does not exist makes the folder, as ESLint does",
    args: ["rules", "-o", "{tmp}/no/such/dir/rules.txt"],
    code: 0,
    stdout: "",
    files: {
      "no/such/dir/rules.txt": (text) =>
        expectTrue(/^unknown-permission +error/m.test(text), "the rules table"),
    },
  },
  {
    name: "check -o into a missing folder makes it too",
    args: ["check", "forms", "-f", "sarif", "-o", "{tmp}/reports/ci/check.sarif"],
    cwd: CLI,
    code: 0,
    stdout: "",
    files: {
      "reports/ci/check.sarif": json((log) => expectTrue(log.version === "2.1.0", "a SARIF log")),
    },
  },

  // rules
  {
    name: "rules ID: one rule, with its severity, command, options and docs",
    args: ["rules", "mcp-tool-verb"],
    code: 0,
    stdout: (out) => {
      expectTrue(/^mcp-tool-verb: /.test(out), "the id and description first");
      expectTrue(
        /^ {2}severity +warning by default; --rule mcp-tool-verb=off\|suggestion\|warning\|error/m.test(
          out,
        ),
        "the severity",
      );
      expectTrue(/^ {2}run by +caplint mcp$/m.test(out), "the command");
      expectTrue(/^ {2}options +--verbs <list> /m.test(out), "its option");
      expectTrue(
        /^ {2}docs +https:\/\/\S+\/docs\/rules\/mcp-tool-verb\.md$/m.test(out),
        "the docs link",
      );
    },
  },
  {
    name: "rules ID -f json: the rule's row with its options",
    args: ["rules", "unknown-permission", "-f", "json"],
    code: 0,
    stdout: json((rule) =>
      expectTrue(
        rule.id === "unknown-permission" && Array.isArray(rule.options) && /^https:/.test(rule.url),
        "one object",
      ),
    ),
  },
  {
    name: "rules with an unknown id: did-you-mean",
    args: ["rules", "unknown-permision"],
    code: 2,
    stdout: "",
    stderr:
      'caplint: rules unknown-permision: no rule has this id; did you mean "unknown-permission"? (caplint rules lists them)\n',
  },
  { name: "rules: a table", args: ["rules"], code: 0, stdout: /^duplicate-capability +error/m },
  {
    name: "rules: json with docs paths",
    args: ["rules", "--format", "json"],
    code: 0,
    stdout: json((rows) =>
      expectTrue(
        rows.some(
          (r: any) =>
            r.id === "invalid-platform" &&
            r.docs === "docs/rules/invalid-platform.md" &&
            r.fixable === true,
        ),
        "invalid-platform listed with its docs",
      ),
    ),
  },

  // access
  {
    name: "access: allowed, with the chain",
    args: ["access", "--window", "main", "--command", "plugin:dialog|save", "--platform", "linux"],
    cwd: DEMO,
    code: 0,
    stdout: [
      'window "main", webview "main", origin local, platform linux',
      "capabilities: default",
      "",
      "ALLOWED: plugin:dialog|save (allowed) on linux",
      '  dialog.save allowed on window "main", webview "main", URL: local',
      "  referenced by: capability: default, permission: allow-save",
      "  granted by capability default › dialog:default › dialog:allow-save [local]  (src-tauri/capabilities/default.json:11)",
      "",
    ].join("\n"),
  },
  {
    name: "access: not allowed exits 1",
    args: [
      "access",
      "--window",
      "settings",
      "--command",
      "plugin:fs|read_file",
      "--platform",
      "linux",
    ],
    cwd: DEMO,
    code: 1,
    stdout: /^NOT ALLOWED: plugin:fs\|read_file \(not-granted\) on linux$/m,
  },
  {
    name: "access: everything a window may call, as JSON",
    args: ["access", "--window", "main", "--platform", "linux", "--format", "json"],
    cwd: DEMO,
    code: 0,
    stdout: json((out) =>
      expectTrue(
        out.window === "main" && out.allowed.some((a: any) => a.command === "plugin:dialog|save"),
        "dialog save allowed for main",
      ),
    ),
  },
  {
    name: "access: an app command Tauri does not check (no app permissions) is not a NOT ALLOWED",
    args: ["access", "--window", "main", "--command", "greet", "--platform", "linux"],
    cwd: `${CLI}/unchecked-app`,
    code: 0,
    stdout: [
      'window "main", webview "main", origin local, platform linux',
      "capabilities: default",
      'note: no known plugin has the command "greet"; did you mean "plugin:menu|get", "plugin:store|get" or "plugin:store|reset"?',
      "",
      "NOT CHECKED: greet (unchecked) on linux",
      "  greet is not checked by Tauri: the app defines no permissions, so any window may call its own command greet from local pages (the app must register it; from a remote origin it would be checked)",
      "  note: Tauri does not check this app command from local pages because the app defines no permissions",
      "",
    ].join("\n"),
  },
  {
    name: "access: the same app command from a remote origin is checked (2.11.2+)",
    args: [
      "access",
      "--window",
      "main",
      "--command",
      "greet",
      "--url",
      "https://example.com/",
      "--platform",
      "linux",
    ],
    cwd: `${CLI}/unchecked-app`,
    code: 1,
    stdout: /^NOT ALLOWED: greet \(not-granted\) on linux$/m,
  },
  {
    name: "access: json says unchecked",
    args: [
      "access",
      "--window",
      "main",
      "--command",
      "greet",
      "--platform",
      "linux",
      "--format",
      "json",
    ],
    cwd: `${CLI}/unchecked-app`,
    code: 0,
    stdout: json((out) =>
      expectTrue(
        out.explanation.verdict === "unchecked" && out.explanation.enforced === false,
        "verdict unchecked",
      ),
    ),
  },
  {
    name: "access -C is --command; -q prints nothing, the exit code answers (yes)",
    args: ["access", "-w", "main", "-C", "plugin:dialog|save", "-q", "--platform", "linux"],
    cwd: DEMO,
    code: 0,
    stdout: "",
  },
  {
    name: "access -q (no)",
    args: ["access", "-w", "settings", "-C", "plugin:fs|read_file", "-q", "--platform", "linux"],
    cwd: DEMO,
    code: 1,
    stdout: "",
  },
  {
    name: "access -o writes the answer to a file, exit code unchanged",
    args: [
      "access",
      "-w",
      "settings",
      "-C",
      "plugin:fs|read_file",
      "--platform",
      "linux",
      "-f",
      "json",
      "-o",
      "{tmp}/answer.json",
    ],
    cwd: DEMO,
    code: 1,
    stdout: "",
    files: {
      "answer.json": json((out) =>
        expectTrue(out.explanation.verdict === "not-granted", "the JSON answer in the file"),
      ),
    },
  },
  {
    name: "access: --window is required",
    args: ["access"],
    cwd: DEMO,
    code: 2,
    stderr: "caplint: access: --window is required (-w, --window <label>)\n",
  },

  // who-can
  {
    name: "who-can: a command nothing knows is an error with a did-you-mean, not an empty answer",
    args: ["who-can", "fs.nonexistent"],
    cwd: DEMO,
    code: 2,
    stdout: "",
    stderr:
      'caplint: who-can fs.nonexistent: no permission of the app or its plugins names the command "plugin:fs|nonexistent"; did you mean "plugin:fs|exists"?\n',
  },
  {
    name: "who-can: an app command of an app without permissions is not checked from local pages, not a typo",
    args: ["who-can", "save_note", "--platform", "linux"],
    cwd: "fixtures/queries/no-app-permissions",
    code: 0,
    stdout:
      "save_note on linux\n  not checked by Tauri from local pages: the app defines no permissions, so any window may call its own command (from a remote origin it is checked)\n  no active capability grants or denies it\n",
  },
  {
    name: "who-can: a remote origin",
    args: ["who-can", "plugin:opener|open_url", "--platform", "linux"],
    cwd: DEMO,
    code: 0,
    stdout:
      /^plugin:opener\|open_url on linux\n  allowed for \[windows: docs-viewer\] from https:\/\/docs\.example\.com\n    by capability remote-docs › opener:allow-open-url  \(src-tauri\/capabilities\/remote-docs\.json:8\)\n/,
  },
  {
    name: "who-can: json",
    args: ["who-can", "plugin:dialog|save", "--platform", "linux", "--format", "json"],
    cwd: DEMO,
    code: 0,
    stdout: json((out) => expectTrue(typeof out === "object" && out !== null, "a JSON object")),
  },

  // least-privilege (test/shipped/least-privilege.test.ts covers --fix on copies)
  {
    name: "least-privilege: text",
    args: ["least-privilege", "--platform", "linux"],
    cwd: DEMO,
    code: 1,
    stdout:
      /^least privilege: 4 frontend files, 10 calls, 2 windows loading local pages\n[^]*\nconfidence: every call resolved[^]*\n--- a\/src-tauri\/capabilities\/settings\.toml\n/,
  },
  {
    name: "least-privilege: json",
    args: ["least-privilege", "--platform", "linux", "--format", "json"],
    cwd: DEMO,
    code: 1,
    stdout: json((out) =>
      expectTrue(
        out.changes.some(
          (c: any) => c.kind === "remove" && c.permission === "core:window:allow-set-theme",
        ),
        "the unused grant removed",
      ),
    ),
  },
  {
    name: "least-privilege: sarif",
    args: ["least-privilege", "--platform", "linux", "--format", "sarif"],
    cwd: DEMO,
    code: 1,
    stdout: json((log) =>
      expectTrue(
        log.runs[0].results.some((r: any) => r.ruleId === "unused-permission"),
        "an unused-permission result",
      ),
    ),
  },

  // matrix
  {
    name: "matrix: text",
    args: ["matrix", "--platform", "linux"],
    cwd: DEMO,
    code: 0,
    stdout:
      /^platform linux, origin local; ✔ callable, ✖ granted but denied, · not granted\ncommand +main +settings +docs-viewer\n/,
  },
  {
    name: "matrix: csv",
    args: ["matrix", "--platform", "linux", "--format", "csv"],
    cwd: DEMO,
    code: 0,
    stdout: /^command,main,settings,docs-viewer\r?\n/,
  },
  {
    name: "matrix: json",
    args: ["matrix", "--platform", "linux", "--format", "json"],
    cwd: DEMO,
    code: 0,
    stdout: json((out) => expectTrue(typeof out === "object", "a JSON matrix")),
  },

  {
    name: "matrix -o writes the matrix",
    args: ["matrix", "--platform", "linux", "-f", "csv", "-o", "{tmp}/m.csv"],
    cwd: DEMO,
    code: 0,
    stdout: "",
    files: {
      "m.csv": (csv) => expectTrue(csv.startsWith("command,main,settings,docs-viewer"), "the CSV"),
    },
  },

  // resolve
  {
    name: "resolve: the normalized model",
    args: ["resolve", "--platform", "linux", "--format", "json"],
    cwd: DEMO,
    code: 0,
    stdout: json((model) =>
      expectTrue(
        model.platform === "linux" && Array.isArray(model.allowed.greet),
        "greet resolved for linux",
      ),
    ),
  },

  // diff
  {
    name: "diff: new access exits 1",
    args: ["diff", `${QUERIES}/app`, `${QUERIES}/app-v2`, "--platform", "linux"],
    code: 1,
    stdout: /^NEW ACCESS on linux \(7 command grants\):\n/,
  },
  {
    name: "diff: no new access exits 0",
    args: ["diff", `${QUERIES}/app`, `${QUERIES}/app`, "--platform", "linux"],
    code: 0,
    stdout: "no new access on linux\n",
  },
  {
    name: "diff -q: the exit code only",
    args: ["diff", `${QUERIES}/app`, `${QUERIES}/app-v2`, "--platform", "linux", "-q"],
    code: 1,
    stdout: "",
  },
  {
    name: "diff: json",
    args: [
      "diff",
      `${QUERIES}/app`,
      `${QUERIES}/app-v2`,
      "--platform",
      "linux",
      "--format",
      "json",
    ],
    code: 1,
    stdout: json((out) => expectTrue(out.added.length > 0, "added grants")),
  },

  // permissions
  {
    name: "permissions: one plugin, filtered",
    args: ["permissions", "fs", "--filter", "read-file", "--platform", "linux"],
    code: 0,
    stdout:
      /^fs:allow-read-file  \(permission\)\n  Enables the read_file command without any pre-configured scope\.\n  allows: plugin:fs\|read_file\n/,
  },
  {
    name: "permissions: json",
    args: ["permissions", "dialog", "--format", "json", "--platform", "linux"],
    code: 0,
    stdout: json((rows) =>
      expectTrue(JSON.stringify(rows).includes("dialog:allow-save"), "dialog:allow-save listed"),
    ),
  },

  // explain
  {
    name: "explain: the host's refusal, why, and the entry that allows it",
    args: [
      "explain",
      'fs.read_text_file not allowed on window "settings", webview "settings", URL: local',
      "--platform",
      "linux",
    ],
    cwd: DEMO,
    code: 0,
    stdout:
      /^Tauri refused plugin:fs\|read_text_file for window "settings", webview "settings", origin local \(granted to other windows or origins, not this one\)\n[\s\S]*\nto allow it:\n  add this entry to "permissions" of capability settings {2}\(src-tauri\/capabilities\/settings\.toml:5\)/,
  },
  {
    name: "explain -: the message from standard input, a release build's (no window in it: --window)",
    args: ["explain", "-", "--window", "settings", "--platform", "linux", "--format", "json"],
    cwd: DEMO,
    stdin: "Command plugin:fs|read_file not allowed by ACL\n",
    code: 0,
    stdout: json((out) =>
      expectTrue(
        out.refusal.kind === "release" &&
          out.command === "plugin:fs|read_file" &&
          out.window === "settings",
        "the refusal read",
      ),
    ),
  },
  {
    name: "explain: a capability that covers the window on some refusing platforms only is named",
    args: [
      "explain",
      "window.set_title not allowed. Permissions associated with this command: core:window:allow-set-title",
    ],
    cwd: DEMO,
    code: 0,
    stdout: (out) =>
      expectTrue(
        out.includes(
          '  no capability covers window "main" from local pages on every platform it is refused on (only on some: default on linux and windows); a new capability file (src-tauri/capabilities/main-set-title.json):\n',
        ),
        "default named with its platforms",
      ),
  },
  {
    name: "explain: the desktop and the mobile capability that together cover the window each get the entry",
    args: [
      "explain",
      "window.set_title not allowed. Permissions associated with this command: core:window:allow-set-title",
      "--format",
      "json",
    ],
    cwd: `${QUERIES}/split-platforms`,
    code: 0,
    stdout: json((out) =>
      expectTrue(
        JSON.stringify(
          out.suggestion.addToEach.map((part: any) => [part.capability, part.platforms]),
        ) ===
          JSON.stringify([
            ["desktop", ["linux", "macOS", "windows"]],
            ["mobile", ["android", "iOS"]],
          ]),
        "both capabilities, with their platforms",
      ),
    ),
  },
  {
    name: "explain: text without a refusal is a usage error",
    args: ["explain", "gibberish"],
    cwd: DEMO,
    code: 2,
    stdout: "",
    stderr: /^caplint: explain: no refusal of Tauri's ACL or of a plugin's scope found in the text/,
  },

  // events (its own suite tests it in depth: test/events)
  {
    name: "events: a recording with mistakes",
    args: ["events", "--format", "compact", "examples/events/session.jsonl"],
    code: 1,
    stdout: /^examples\/events\/session\.jsonl:7:36: error .*\[approval-lifecycle\]$/m,
  },
  {
    name: "events -: standard input",
    args: ["events", "-", "--format", "json"],
    stdin: '{"type":"done","output_tokens":-1}\n',
    code: 1,
    stdout: json((out) => expectTrue(out.diagnostics.length > 0, "findings")),
  },

  {
    name: "events --only: the other event rules are off",
    args: [
      "events",
      "--only",
      "event-field",
      "--format",
      "compact",
      "examples/events/session.jsonl",
    ],
    code: 1,
    stdout:
      'examples/events/session.jsonl:10:116: error "output_tokens" of done must be an unsigned 32-bit integer or null, got -1 (out of the unsigned 32-bit range 0 to 4294967295) [event-field]\n',
  },
  {
    name: "events --only with a misspelt rule: did-you-mean, exit 2",
    args: ["events", "--only", "tool-lifecycl", "examples/events/session.jsonl"],
    code: 2,
    stdout: "",
    stderr:
      'caplint: --only tool-lifecycl: unknown rule "tool-lifecycl"; did you mean "tool-lifecycle"?\n',
  },
  {
    name: "events: the unknown-field hint never suggests a field the event already has",
    args: ["events", "-", "--format", "json"],
    stdin:
      '{"type":"file_changed","path":"a.md","pathh":"b.md"}\n{"type":"user_message","message_id":1,"content":"hi","attachment":[]}\n',
    code: 0,
    stdout: json((out) =>
      expectTrue(
        JSON.stringify(out.diagnostics.map((d: any) => d.hint)) ===
          JSON.stringify([
            'file_changed already has "path": "pathh" is a misspelt second copy of it; remove it',
            'did you mean "attachments"?',
          ]),
        "a second copy named as such; a missing field suggested",
      ),
    ),
  },

  // mcp (its own suite tests it in depth)
  {
    name: "mcp: a dump with findings",
    args: ["mcp", "--format", "json", "fixtures/mcp/dumps/bad.json"],
    code: 1,
    stdout: json((out) =>
      expectTrue(out.diagnostics.length > 0 && out.summary.errors > 0, "findings"),
    ),
  },
  {
    name: "mcp --stdio: a live server that follows the conventions",
    args: ["mcp", "--stdio", "--", "node", "fixtures/mcp/good-server.mjs"],
    code: 0,
    stdout: "1 file checked, no problems\n",
  },
  {
    name: "mcp dump --stdio -o: the server's initialize result and tools/list pages",
    args: [
      "mcp",
      "dump",
      "-o",
      "{tmp}/tools.json",
      "--stdio",
      "--",
      "node",
      "fixtures/mcp/good-server.mjs",
    ],
    code: 0,
    stdout: "",
    files: {
      "tools.json": json((dump) =>
        expectTrue(
          dump.format === "caplint-mcp-dump/1" &&
            dump.initialize.serverInfo.name === "demo_mcp" &&
            dump.pages[0].tools.some((t: any) => t.name === "demo_list_items"),
          "the dump",
        ),
      ),
    },
  },

  {
    name: "mcp --servers: every server of a client configuration, findings at its entry",
    args: [
      "mcp",
      "--format",
      "json",
      "--servers",
      "fixtures/mcp/clients/claude_desktop_config.json",
    ],
    code: 1,
    stdout: json((out) =>
      expectTrue(
        out.diagnostics.length > 0 &&
          out.diagnostics.every(
            (d: any) =>
              d.file === "fixtures/mcp/clients/claude_desktop_config.json" &&
              d.line === 4 &&
              d.column === 5,
          ),
        "findings at the demo-bad entry only (demo is clean)",
      ),
    ),
  },

  // report
  // -o as every other command takes it, the same as --html.
  ...["--html", "-o"].map((flag): Scenario => ({
    name: `report ${flag} writes one self-contained page`,
    args: ["report", flag, "{tmp}/report.html", "--platform", "linux"],
    cwd: DEMO,
    code: 0,
    stdout: /^wrote .*report\.html: /,
    files: {
      "report.html": (html) =>
        expectTrue(html.startsWith("<!doctype html>") && html.includes("</html>"), "an HTML page"),
    },
  })),
  {
    name: "report --html - prints the page",
    args: ["report", "--html", "-", "--platform", "linux"],
    cwd: DEMO,
    code: 0,
    stdout: /^<!doctype html>[\s\S]*<\/html>\n?$/,
  },
  {
    name: "report --html and -o naming two places is a usage error",
    args: ["report", "--html", "{tmp}/a.html", "-o", "{tmp}/b.html"],
    cwd: DEMO,
    code: 2,
    stdout: "",
    stderr:
      /^caplint: report: --html .*a\.html and --output .*b\.html name two places to write the page; give one\n$/,
  },
  {
    name: "report without --html is a usage error",
    args: ["report"],
    cwd: DEMO,
    code: 2,
    stdout: "",
    stderr: /--html FILE or -o FILE/,
  },
];
