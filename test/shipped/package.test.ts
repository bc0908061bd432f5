import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnNode } from "../helpers/hosts.js";
import { ROOT } from "../helpers/run.js";

/**
 * The package as users get it: `npm pack`, the tarball installed into a fresh project (offline from
 * npm's cache when it can be), and every command run there with `npx caplint ...`. Only this sees a
 * file left out of package.json "files" or a path the bundle breaks (`caplint schema` once exited 2
 * with ENOENT from the tarball while every in-process test passed).
 *
 * PACKAGED_COMMANDS lists one run per command and per mode that runs other code (`mcp dump`,
 * `schema --events`, `check -`: MODES below); a new command or mode adds its line here (and rows to
 * test/shipped/scenarios.ts).
 */
export interface PackagedCommand {
  command: string;
  args: string[];
  stdin?: string;
  code: number;
  stdout: RegExp | ((text: string) => void);
}

const exec = promisify(execFile);
/** npm pack, npm install and a dozen npx runs on a busy two-core machine. */
const TIMEOUT = 300_000;

const parses = (check: (value: any) => boolean, what: string) => (text: string) => {
  if (!check(JSON.parse(text))) throw new Error(`expected ${what}`);
};

/** Run from the temporary project, which holds a copy of the example app in `app/`, two query fixtures in `old/` and `new/`, the example recording in `events/`, and the tool-server dumps and good-server.mjs in `mcp/`. */
export const PACKAGED_COMMANDS: PackagedCommand[] = [
  {
    command: "schema",
    args: ["schema"],
    code: 0,
    stdout: parses(
      (s) =>
        s.definitions.Identifier.anyOf[0].oneOf.some((c: any) => c.const === "fs:allow-read-file"),
      "the editor schema",
    ),
  },
  {
    command: "schema --app",
    args: ["schema", "--app", "app"],
    code: 0,
    stdout: /"const": "allow-greet"/,
  },
  {
    command: "schema --events",
    args: ["schema", "--events"],
    code: 0,
    stdout: parses(
      (s) =>
        s.$schema === "http://json-schema.org/draft-07/schema#" &&
        "definitions" in s &&
        /event/i.test(s.title),
      "the event schema",
    ),
  },
  {
    command: "check",
    args: ["check", "--app", "app", "--format", "compact"],
    code: 1,
    stdout:
      /^app\/src-tauri\/capabilities\/default\.json:\d+:\d+: error .*\[unknown-permission\]$/m,
  },
  {
    // Named files and no option: the bin runs the check bundle (dist/cli-bundle/check.cjs).
    command: "check FILE",
    args: ["check", "app/src-tauri/capabilities/default.json"],
    code: 1,
    stdout: /unknown-permission/,
  },
  {
    command: "check (default, in the app)",
    args: ["--format", "json"],
    code: 1,
    stdout: parses((r) => r.summary.errors > 0 && r.diagnostics.length > 0, "findings"),
  },
  {
    command: "check - (standard input)",
    args: [
      "check",
      "-",
      "--stdin-filename",
      "app/src-tauri/capabilities/default.json",
      "--format",
      "compact",
    ],
    stdin: '{ "identifier": "typo", "windows": ["main"], "permissions": ["core:windw:default"] }\n',
    code: 1,
    stdout:
      /^app\/src-tauri\/capabilities\/default\.json:1:62: error unknown permission "core:windw:default".*\[unknown-permission\]$/m,
  },
  {
    command: "check --format sarif",
    args: ["check", "--app", "app", "--format", "sarif"],
    code: 1,
    stdout: parses((log) => log.runs[0].results.length > 0, "a SARIF log"),
  },
  { command: "rules", args: ["rules"], code: 0, stdout: /^unknown-permission +error/m },
  {
    command: "access",
    args: [
      "access",
      "--app",
      "app",
      "--window",
      "main",
      "--command",
      "plugin:dialog|save",
      "--platform",
      "linux",
    ],
    code: 0,
    stdout: /^ALLOWED: plugin:dialog\|save/m,
  },
  {
    command: "who-can",
    args: ["who-can", "plugin:opener|open_url", "--app", "app", "--platform", "linux"],
    code: 0,
    stdout: /allowed for \[windows: docs-viewer\] from https:\/\/docs\.example\.com/,
  },
  {
    command: "matrix",
    args: ["matrix", "--app", "app", "--platform", "linux", "--format", "csv"],
    code: 0,
    stdout: /^command,main,settings,docs-viewer/,
  },
  {
    command: "resolve",
    args: ["resolve", "--app", "app", "--platform", "linux", "--format", "json"],
    code: 0,
    stdout: parses((m) => m.platform === "linux" && "greet" in m.allowed, "the resolved model"),
  },
  {
    command: "diff",
    args: ["diff", "old", "new", "--platform", "linux"],
    code: 1,
    stdout: /^NEW ACCESS on linux \(\d+ command grants\):/,
  },
  {
    command: "explain",
    args: [
      "explain",
      'fs.read_text_file not allowed on window "settings", webview "settings", URL: local',
      "--app",
      "app",
      "--platform",
      "linux",
    ],
    code: 0,
    stdout: /refused plugin:fs\|read_text_file for window "settings"/,
  },
  {
    command: "permissions",
    args: ["permissions", "fs", "--filter", "read-file", "--platform", "linux"],
    code: 0,
    stdout: /^fs:allow-read-file {2}\(permission\)/m,
  },
  {
    command: "least-privilege",
    args: ["least-privilege", "--app", "app", "--format", "json"],
    code: 1,
    stdout: parses(
      (a) =>
        a.windows.some(
          (w: any) =>
            w.window === "settings" &&
            w.grantsUnused.some((g: any) => g.permission === "core:window:allow-set-theme"),
        ),
      "the least-privilege answer",
    ),
  },
  {
    command: "report --html",
    args: ["report", "--app", "app", "--platform", "linux", "--html", "report.html"],
    code: 0,
    stdout: /^wrote report\.html: /,
  },
  {
    command: "events",
    args: ["events", "--format", "compact", "events/session.jsonl"],
    code: 1,
    stdout: /^events\/session\.jsonl:\d+:\d+: error .*\[approval-lifecycle\]$/m,
  },
  {
    command: "mcp",
    args: ["mcp", "--format", "json", "mcp/bad.json"],
    code: 1,
    stdout: parses((r) => r.diagnostics.length > 0, "findings in the bad server's dump"),
  },
  // A live run from the tarball: the SDK chunk (dist/cli-bundle/mcp-sdk.cjs) must load where it is installed.
  {
    command: "mcp --stdio",
    args: ["mcp", "--stdio", "--", process.execPath, "mcp/good-server.mjs"],
    code: 0,
    stdout: /^1 file checked, no problems$/m,
  },
  // The servers of a client configuration, started by the run (not by the bin): the server-process chunk must load from the tarball too.
  {
    command: "mcp --servers",
    args: ["mcp", "--servers", "mcp/.mcp.json"],
    code: 0,
    stdout: /^1 file checked, no problems$/m,
  },
  {
    command: "mcp dump",
    args: ["mcp", "dump", "--stdio", "--", process.execPath, "mcp/good-server.mjs"],
    code: 0,
    stdout: parses(
      (d) =>
        d.format === "caplint-mcp-dump/1" &&
        d.initialize.serverInfo.name === "demo_mcp" &&
        d.pages[0].tools.length > 0,
      "a dump",
    ),
  },
  // The language server from the tarball: its library is a chunk of its own (dist/cli-bundle/lsp-protocol.cjs).
  {
    command: "lsp --stdio",
    args: ["lsp", "--stdio"],
    stdin: lspMessages(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { processId: null, rootUri: null, capabilities: {} },
      },
      { jsonrpc: "2.0", id: 2, method: "shutdown" },
      { jsonrpc: "2.0", method: "exit" },
    ),
    code: 0,
    stdout: /"serverInfo":\{"name":"caplint","version":"\d+\.\d+\.\d+"\}/,
  },
  { command: "--version", args: ["--version"], code: 0, stdout: /^\d+\.\d+\.\d+\n$/ },
];

/** Messages framed as LSP sends them. */
function lspMessages(...messages: object[]): string {
  return messages
    .map(
      (message) =>
        `Content-Length: ${Buffer.byteLength(JSON.stringify(message))}\r\n\r\n${JSON.stringify(message)}`,
    )
    .join("");
}

let project: string;
let tarball: string;
let packed: { files: Array<{ path: string }> };
let installOutput: string;

beforeAll(async () => {
  expect(
    existsSync(path.join(ROOT, "dist/cli-bundle/main.cjs")),
    "npm run build first (npm test does)",
  ).toBe(true);
  const scratch = mkdtempSync(path.join(tmpdir(), "caplint-pack-"));
  // The build is fresh (npm test builds first); caplint has no pack or install script.
  const { stdout } = await exec("npm", ["pack", "--json", "--pack-destination", scratch], {
    cwd: ROOT,
  });
  packed = (JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>)[0]!;
  tarball = path.join(scratch, (packed as unknown as { filename: string }).filename);
  project = path.join(scratch, "project");
  mkdirSync(project);
  writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "caplint-pack-test", version: "1.0.0", private: true }, null, 2),
  );
  // As users install it, scripts allowed: npm 11 warns about a package's install scripts (a `prepare` it once had).
  const installed = await exec(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--save-dev", tarball],
    { cwd: project },
  );
  installOutput = `${installed.stdout}${installed.stderr}`;
  cpSync(path.join(ROOT, "examples/demo-app"), path.join(project, "app"), { recursive: true });
  cpSync(path.join(ROOT, "fixtures/queries/app"), path.join(project, "old"), { recursive: true });
  cpSync(path.join(ROOT, "examples/events"), path.join(project, "events"), { recursive: true });
  cpSync(path.join(ROOT, "fixtures/mcp/dumps"), path.join(project, "mcp"), { recursive: true });
  cpSync(
    path.join(ROOT, "fixtures/mcp/good-server.mjs"),
    path.join(project, "mcp/good-server.mjs"),
  );
  // A client configuration (Claude Code's .mcp.json) declaring that server; its cwd is the file's folder.
  writeFileSync(
    path.join(project, "mcp/.mcp.json"),
    JSON.stringify({
      mcpServers: { demo: { command: process.execPath, args: ["good-server.mjs"] } },
    }),
  );
  cpSync(path.join(ROOT, "fixtures/queries/app-v2"), path.join(project, "new"), {
    recursive: true,
  });
}, TIMEOUT);

afterAll(() => {
  if (project) rmSync(path.dirname(project), { recursive: true, force: true });
});

describe("the npm tarball, installed in a fresh project", { timeout: TIMEOUT }, () => {
  it("holds what users need and nothing of the development tree", () => {
    const files = packed.files.map((f) => f.path);
    for (const needed of [
      "LICENSE",
      "README.md",
      "package.json",
      "bin/caplint.js",
      "dist/cli-bundle/main.cjs",
      // The code caches of the bundle, one per kind of run (scripts/build-code-cache.mjs).
      "dist/cli-bundle/main.cjs.cache",
      // A check of named files runs a bundle of its own (without the other commands), with its cache.
      "dist/cli-bundle/check.cjs",
      "dist/cli-bundle/check.cjs.cache",
      "dist/cli-bundle/main.cjs.events.cache",
      "dist/cli-bundle/main.cjs.mcp.cache",
      "dist/cli-bundle/mcp-sdk.cjs",
      "dist/cli-bundle/lsp-protocol.cjs",
      "dist/index.js",
      "dist/index.d.ts",
      "schema/capability.schema.json",
      "schema/caplint.config.schema.json",
      // mcp-tool-verb's lexicon, with its licence.
      "data/wordnet-verbs.txt",
      "data/wordnet-verbs.LICENSE",
      // The frontend scan's call map and its hand-kept overrides (read on first use).
      "data/js-api-map.json",
      "data/js-api-overrides.json",
    ]) {
      expect(files, needed).toContain(needed);
    }
    expect(
      files.some((f) => f.startsWith("data/") && f.endsWith(".json")),
      "the built-in catalogs",
    ).toBe(true);
    expect(
      files.filter((f) => /^(src|test|fixtures|scripts|examples|editors|node_modules)\//.test(f)),
    ).toEqual([]);
  });

  it("installs without a warning, and its manifest has no install script", () => {
    expect(installOutput).not.toMatch(/npm warn|install-scripts/i);
    const manifest = JSON.parse(
      readFileSync(path.join(project, "node_modules/caplint/package.json"), "utf8"),
    ) as { scripts?: Record<string, string> };
    for (const script of ["preinstall", "install", "postinstall", "prepare"])
      expect(manifest.scripts?.[script], script).toBeUndefined();
  });

  it("declares its licence, repository, homepage, bugs and keywords", () => {
    const manifest = JSON.parse(
      readFileSync(path.join(project, "node_modules/caplint/package.json"), "utf8"),
    );
    expect(manifest.license).toBe("MIT");
    expect(readFileSync(path.join(project, "node_modules/caplint/LICENSE"), "utf8")).toMatch(
      /^MIT License\n/,
    );
    expect(manifest.repository).toEqual({
      type: "git",
      url: "git+https://github.com/caplint/caplint.git",
    });
    expect(manifest.homepage).toMatch(/^https:\/\/github\.com\/caplint\/caplint/);
    expect(manifest.bugs.url).toBe("https://github.com/caplint/caplint/issues");
    expect(manifest.keywords).toEqual(expect.arrayContaining(["tauri", "capabilities", "linter"]));
  });

  for (const entry of PACKAGED_COMMANDS) {
    it.concurrent(`npx caplint ${entry.command}`, async () => {
      // "check (default, in the app)" runs in the app folder, as a user does.
      const cwd = entry.command.includes("in the app") ? path.join(project, "app") : project;
      const result = await spawnNode(
        ["caplint", ...entry.args],
        cwd,
        entry.stdin,
        { npm_config_yes: "false" },
        "npx",
      );
      expect(result.stderr.replace(/^npm warn .*\n/gim, ""), "nothing on stderr").toBe("");
      expect(result.code, result.stderr).toBe(entry.code);
      if (entry.stdout instanceof RegExp) expect(result.stdout).toMatch(entry.stdout);
      else entry.stdout(result.stdout);
    });
  }

  it("runs the README's test-suite example with the installed caplint and caplint/vitest", async () => {
    // vitest is an optional peer dependency: the project brings its own (here, this checkout's).
    symlinkSync(
      path.join(ROOT, "node_modules", "vitest"),
      path.join(project, "node_modules", "vitest"),
    );
    mkdirSync(path.join(project, "suite"));
    writeFileSync(
      path.join(project, "suite", "events.test.mjs"),
      [
        'import { expect, it } from "vitest";',
        'import { createEventValidator } from "caplint";',
        'import "caplint/vitest";',
        'it("checks recordings", () => {',
        '  expect([\'{"type":"turn_running","running":true}\']).toBeValidEventStream();',
        '  expect([\'{"type":"tool_done","tool_call_id":1,"result":"x"}\']).not.toBeValidEventStream();',
        "  const validator = createEventValidator();",
        '  const found = [...validator.push(\'{"type":"done","output_tokens":-1}\'), ...validator.end()];',
        '  expect(found.map((d) => d.ruleId)).toContain("event-field");',
        "});",
        "",
      ].join("\n"),
    );
    const result = await spawnNode(
      [path.join("node_modules", "vitest", "vitest.mjs"), "run", "suite"],
      project,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Tests +1 passed/);
  });

  it("runs the installed copy, not this checkout", async () => {
    const result = await spawnNode(["-p", "require.resolve('caplint/package.json')"], project);
    expect(result.stdout.trim()).toBe(path.join(project, "node_modules/caplint/package.json"));
  });

  it("the VS Code extension (editors/vscode) starts the installed caplint, whose server answers initialize", async () => {
    const { serverCommand } = createRequire(import.meta.url)(
      path.join(ROOT, "editors/vscode/server-command.js"),
    );
    // The workspace is the app folder; caplint is installed in the project above it.
    const app = path.join(project, "app");
    const server = serverCommand({ folders: [app], node: process.execPath });
    expect(server).toEqual({
      command: process.execPath,
      args: [path.join(project, "node_modules/caplint/bin/caplint.js"), "lsp", "--stdio"],
      from: project,
    });
    const result = await spawnNode(
      server.args,
      app,
      lspMessages(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { processId: null, rootUri: pathToFileURL(app).href, capabilities: {} },
        },
        { jsonrpc: "2.0", id: 2, method: "shutdown" },
        { jsonrpc: "2.0", method: "exit" },
      ),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/"serverInfo":\{"name":"caplint","version":"\d+\.\d+\.\d+"\}/);
  });

  it("every command in caplint --help has a packaged run", async () => {
    const help = await spawnNode(["caplint", "--help"], project, undefined, {}, "npx");
    const commands = [...help.stdout.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)]
      .map((m) => m[1]!)
      .filter((c) => c !== "help");
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands)
      expect(
        PACKAGED_COMMANDS.some((entry) => entry.args[0] === command),
        `a PACKAGED_COMMANDS entry for ${command}`,
      ).toBe(true);
  });

  // Modes a command's own --help names, which run other code than the plain command (a sub-command,
  // another schema, standard input): each needs its own packaged run too.
  const MODES: Array<{ args: string[]; inHelp: string }> = [
    { args: ["mcp", "dump"], inHelp: "caplint mcp dump" },
    { args: ["mcp", "--stdio"], inHelp: "--stdio" },
    { args: ["mcp", "--servers"], inHelp: "--servers" },
    { args: ["schema", "--events"], inHelp: "--events" },
    { args: ["schema", "--app"], inHelp: "--app" },
    { args: ["check", "-"], inHelp: "- reads one capability" },
  ];
  for (const mode of MODES) {
    it(`caplint ${mode.args.join(" ")} is named by its --help and has a packaged run`, async () => {
      const help = await spawnNode(
        ["caplint", mode.args[0]!, "--help"],
        project,
        undefined,
        {},
        "npx",
      );
      expect(help.stdout.replace(/\s+/g, " ")).toContain(mode.inHelp);
      expect(
        PACKAGED_COMMANDS.some((entry) => mode.args.every((arg, i) => entry.args[i] === arg)),
        `a PACKAGED_COMMANDS entry for ${mode.args.join(" ")}`,
      ).toBe(true);
    });
  }
});
