import { execFile, spawnSync } from "node:child_process";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { checkoutBin } from "../helpers/hosts.js";
import { tomlApp } from "../capabilities/load/toml-app.js";
import { writeRedundantEntriesApp } from "../helpers/capability-app.js";
import { FIXTURES, ROOT, run } from "../helpers/run.js";
import { caplint } from "../mcp/helpers.js";

/**
 * The cases of the in-process test files (test/cli/main.test.ts, test/capabilities/fix-project.test.ts, test/capabilities/queries.test.ts, test/capabilities/load/app-config.test.ts,
 * test/events/, test/mcp/cli.test.ts) that need the built bin or package: the unit tests run without a build.
 */
const CLI = path.join(FIXTURES, "cli");
const DUMPS = path.join(FIXTURES, "mcp", "dumps");

function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-mcp-cli-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

describe("the real bin", () => {
  const exec = promisify(execFile);
  it("runs as a process with the same exit codes", async () => {
    expect(existsSync(path.join(ROOT, "dist/cli-bundle/main.cjs")), "npm run build first").toBe(
      true,
    );
    const ok = await exec(process.execPath, [path.join(ROOT, "bin/caplint.js"), "check", "forms"], {
      cwd: CLI,
    });
    expect(ok.stdout).toBe("4 files checked, no problems\n");
    const failed = await exec(
      process.execPath,
      [path.join(ROOT, "bin/caplint.js"), "check", "mixed-folder", "-f", "compact"],
      { cwd: CLI },
    ).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain("[parse]");
    const usage = await exec(
      process.execPath,
      [path.join(ROOT, "bin/caplint.js"), "nonsense-command-or-path"],
      { cwd: CLI },
    ).catch((e) => e);
    expect(usage.code).toBe(2);
    expect(usage.stderr).not.toMatch(/\n\s+at /);
  });

  it("exports the bin's main when the bundle is required in-process (the host oracle's differential-test driver loads it so)", async () => {
    const child = spawnSync(
      process.execPath,
      [
        "-e",
        `const { main } = require(${JSON.stringify(path.join(ROOT, "dist/cli-bundle/main.cjs"))});
const sink = () => { let text = ""; return { write: (chunk) => void (text += chunk), isTTY: false, get text() { return text; } }; };
const stdout = sink(), stderr = sink();
main({ argv: ["check", "mixed-folder", "-f", "compact"], cwd: ${JSON.stringify(CLI)}, env: { NO_COLOR: "1" }, stdout, stderr })
  .then((code) => process.stdout.write(JSON.stringify({ code, stdout: stdout.text, stderr: stderr.text })));`,
      ],
      { encoding: "utf8" },
    );
    expect(child.stderr).toBe("");
    const inProcess = JSON.parse(child.stdout);
    const bin = await exec(
      process.execPath,
      [path.join(ROOT, "bin/caplint.js"), "check", "mixed-folder", "-f", "compact"],
      { cwd: CLI, env: { ...process.env, NO_COLOR: "1" } },
    ).catch((e) => e);
    expect(inProcess).toEqual({ code: bin.code, stdout: bin.stdout, stderr: bin.stderr });
    expect(inProcess.code).toBe(1);
  });

  it("runs a check of named files from the check bundle as the main bundle runs it, and no other command from it", () => {
    const inProcess = (bundle: string, argv: string[]) => {
      const child = spawnSync(
        process.execPath,
        [
          "-e",
          `const { main } = require(${JSON.stringify(path.join(ROOT, "dist/cli-bundle", bundle))});
const sink = () => { let text = ""; return { write: (chunk) => void (text += chunk), isTTY: false, get text() { return text; } }; };
const stdout = sink(), stderr = sink();
main({ argv: ${JSON.stringify(argv)}, cwd: ${JSON.stringify(CLI)}, env: { NO_COLOR: "1" }, stdout, stderr })
  .then((code) => process.stdout.write(JSON.stringify({ code, stdout: stdout.text, stderr: stderr.text })));`,
        ],
        { encoding: "utf8" },
      );
      expect(child.stderr).toBe("");
      return JSON.parse(child.stdout) as { code: number; stdout: string; stderr: string };
    };
    for (const argv of [
      ["check", "forms/single.json", "forms/wrapped.toml"],
      ["mixed-folder/typo.json", "mixed-folder/broken.json"],
    ]) {
      const checked = inProcess("check.cjs", argv);
      expect(checked.stdout).not.toBe("");
      expect(checked).toEqual(inProcess("main.cjs", argv));
    }
    // The bin never sends it another command (bin/caplint.js, filesCheck); asked, it says so.
    const other = inProcess("check.cjs", ["rules"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("is not in the check bundle");
  });

  it("starts from the V8 code cache the build made for this Node, a heap size in NODE_OPTIONS or not (a rejected cache would silently cost start-up)", () => {
    const bundle = path.join(ROOT, "dist/cli-bundle/main.cjs");
    // A preloaded module reports what the bin's vm.Script made of the cache, and the heap V8 was given.
    const spy = path.join(mkdtempSync(path.join(tmpdir(), "caplint-code-cache-")), "spy.cjs");
    writeFileSync(
      spy,
      `const vm = require("node:vm");
const Compiled = vm.Script;
vm.Script = class extends Compiled {
  constructor(source, options) {
    super(source, options);
    if (options?.cachedData) process.on("exit", () => process.stderr.write("cache " + JSON.stringify({ file: options.filename, rejected: this.cachedDataRejected, bytes: options.cachedData.length, heapLimit: require("node:v8").getHeapStatistics().heap_size_limit }) + "\\n"));
  }
};`,
    );
    const { NODE_OPTIONS: _, ...env } = process.env;
    const started = (nodeOptions: string, nodeArgs: string[] = []) => {
      const child = spawnSync(
        process.execPath,
        [...nodeArgs, path.join(ROOT, "bin/caplint.js"), "check", "forms"],
        {
          cwd: CLI,
          encoding: "utf8",
          env: { ...env, NODE_OPTIONS: `--require ${JSON.stringify(spy)} ${nodeOptions}` },
        },
      );
      expect(child.stdout).toBe("4 files checked, no problems\n");
      return JSON.parse(/^cache (.*)$/m.exec(child.stderr)?.[1] ?? "null") as {
        file: string;
        rejected: boolean;
        heapLimit: number;
      };
    };
    expect(started("")).toMatchObject({ file: bundle, rejected: false });
    const mib = 1024 * 1024;
    // The heap keeps the size asked for (V8 adds the young generation's to the limit it reports).
    const asked = started("--max-old-space-size=3000 --max_semi_space_size=32");
    expect(asked).toMatchObject({ rejected: false });
    expect(Math.floor(asked.heapLimit / mib)).toBeGreaterThanOrEqual(3000);
    expect(Math.floor(asked.heapLimit / mib)).toBeLessThan(3200);
    expect(started("", ["--max-old-space-size=2500"])).toMatchObject({ rejected: false });
    // Another V8 flag is part of the cache's key: compiled from source, still correct.
    expect(started("--stack-trace-limit=20 --max-old-space-size=3000")).toMatchObject({
      rejected: true,
    });
    // Each kind of run reads the cache its own warm-up made (the sizes tell them apart), and V8 takes it.
    const cacheOf = (args: string[]) => {
      const child = spawnSync(process.execPath, [path.join(ROOT, "bin/caplint.js"), ...args], {
        cwd: CLI,
        encoding: "utf8",
        env: { ...env, NODE_OPTIONS: `--require ${JSON.stringify(spy)}` },
      });
      expect(child.status, child.stderr).toBe(0);
      const seen = JSON.parse(/^cache (.*)$/m.exec(child.stderr)?.[1] ?? "null") as {
        file: string;
        rejected: boolean;
        bytes: number;
      };
      expect(seen.rejected).toBe(false);
      // Every run but a check of named files runs the main bundle.
      expect(seen.file).toBe(
        args.every((arg) => /^(check|.*\.(json|toml))$/.test(arg)) ? checkBundle : bundle,
      );
      return seen.bytes;
    };
    const checkBundle = path.join(ROOT, "dist/cli-bundle/check.cjs");
    const bytesOf = (name: string) => statSync(path.join(ROOT, "dist/cli-bundle", name)).size;
    expect(cacheOf(["check", "forms"])).toBe(bytesOf("main.cjs.cache"));
    // A check of named files runs the check bundle (no other command's modules), from its own cache.
    expect(cacheOf(["check", "forms/single.json", "forms/wrapped.toml"])).toBe(
      bytesOf("check.cjs.cache"),
    );
    expect(cacheOf(["forms/single.json"])).toBe(bytesOf("check.cjs.cache"));
    expect(bytesOf("check.cjs")).toBeLessThan(bytesOf("main.cjs") * 0.85);
    // With an option it may need the other commands (an unknown one is worded with theirs): the main bundle.
    expect(cacheOf(["check", "--format", "json", "forms/single.json"])).toBe(
      bytesOf("main.cjs.cache"),
    );
    expect(
      cacheOf([
        "events",
        path.join(FIXTURES, "events/approval-lifecycle/valid/approval-approved.jsonl"),
      ]),
    ).toBe(bytesOf("main.cjs.events.cache"));
    expect(cacheOf(["mcp", path.join(FIXTURES, "mcp/dumps/good.json")])).toBe(
      bytesOf("main.cjs.mcp.cache"),
    );
    for (const file of [bundle, checkBundle]) {
      expect(readFileSync(file, "utf8")).not.toMatch(/\bimport\(/);
      // One non-ASCII character would make V8 hold the whole source as a two-byte string, decoded the slow way on every run.
      expect(readFileSync(file, "latin1")).not.toMatch(/[^\x00-\x7f]/);
    }
  });
});

describe("V8's optimizer flags", () => {
  it("raise the tier-up threshold for a run of the main bundle once its code cache is taken, lower the inlining budget of a run over capabilities on Node 20, and are left alone elsewhere", () => {
    // A preloaded module records each flag the bin sets, and whether the bundle was compiled by then.
    const spy = path.join(mkdtempSync(path.join(tmpdir(), "caplint-tier-up-")), "spy.cjs");
    writeFileSync(
      spy,
      `const vm = require("node:vm");
const v8 = require("node:v8");
let compiled = false;
const Compiled = vm.Script;
vm.Script = class extends Compiled {
  constructor(source, options) {
    super(source, options);
    if (options?.cachedData) {
      compiled = !this.cachedDataRejected;
      process.stderr.write("cache " + JSON.stringify({ file: require("node:path").basename(options.filename), taken: compiled }) + "\\n");
    }
  }
};
const set = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => {
  process.stderr.write("flag " + JSON.stringify({ flags, afterTheCache: compiled }) + "\\n");
  return set(flags);
};`,
    );
    const { NODE_OPTIONS: _, ...env } = process.env;
    const flagsOf = (args: string[], nodeArgs: string[] = [], nodeOptions = "", status = 0) => {
      const child = spawnSync(
        process.execPath,
        [...nodeArgs, path.join(ROOT, "bin/caplint.js"), ...args],
        {
          cwd: CLI,
          encoding: "utf8",
          env: { ...env, NODE_OPTIONS: `--require ${JSON.stringify(spy)} ${nodeOptions}` },
        },
      );
      expect(child.status, child.stderr).toBe(status);
      // Nothing else on standard error: V8 prints a flag it does not know there.
      expect(child.stderr.replace(/^(flag|cache) .*\n/gm, "")).toBe("");
      // Every code cache of the run is taken, those compiled after the flag too (a V8 flag given to
      // node makes V8 refuse every cache, as it should).
      if (nodeArgs.length === 0)
        for (const line of child.stderr.matchAll(/^cache (.*)$/gm))
          expect(JSON.parse(line[1]!), line[1]).toMatchObject({ taken: true });
      return [...child.stderr.matchAll(/^flag (.*)$/gm)].map(
        (line) => JSON.parse(line[1]!) as { flags: string; afterTheCache: boolean },
      );
    };
    // By V8's version (Node 20's, 22's and 24's).
    const raised = {
      "11.3": "--interrupt-budget=270336",
      "12.4": "--invocation-count-for-turbofan=12000",
      "13.6": "--invocation-count-for-turbofan=12000",
    }[/^\d+\.\d+/.exec(process.versions.v8)![0]];
    const expected = raised === undefined ? [] : [{ flags: raised, afterTheCache: true }];
    // On Node 20, a run over an app's capabilities (a check, a query) inlines only small functions too.
    const budget =
      raised === "--interrupt-budget=270336" ? "--max-inlined-bytecode-size=60" : undefined;
    const overCapabilities =
      budget === undefined ? expected : [...expected, { flags: budget, afterTheCache: true }];
    expect(flagsOf(["check", "forms"])).toEqual(overCapabilities);
    expect(flagsOf(["check", "--format", "json", "forms/single.json"])).toEqual(overCapabilities);
    expect(flagsOf(["matrix", "forms", "--format", "json"])).toEqual(overCapabilities);
    // Recordings, tool servers and the language server keep it (which, its input ended without a
    // shutdown request, exits 1 as the protocol says).
    expect(flagsOf(["lsp", "--stdio"], [], "", 1)).toEqual(expected);
    expect(
      flagsOf([
        "events",
        path.join(FIXTURES, "events/approval-lifecycle/valid/approval-approved.jsonl"),
      ]),
    ).toEqual(expected);
    expect(flagsOf(["mcp", path.join(FIXTURES, "mcp/dumps/good.json")])).toEqual(expected);
    // A live server's run compiles the MCP SDK's chunk later, from a code cache made under V8's
    // defaults: the threshold is set back for that compile alone (every cache taken, checked above),
    // a heap size in NODE_OPTIONS too.
    const live = [
      "mcp",
      "--stdio",
      "--",
      process.execPath,
      path.join(FIXTURES, "mcp/good-server.mjs"),
    ];
    const byDefault = raised?.replace(/=\d+$/, (value) => `=${Number(value.slice(1)) / 4}`);
    expect(flagsOf(live)).toEqual(
      raised === undefined
        ? []
        : [raised, byDefault, raised].map((flags) => ({ flags, afterTheCache: true })),
    );
    expect(
      flagsOf(live, [], "--max-old-space-size=3000").filter(({ flags }) => flags === byDefault),
    ).toHaveLength(raised === undefined ? 0 : 1);
    // The check bundle (named files) and the answers without a bundle keep V8's default.
    expect(flagsOf(["check", "forms/single.json"])).toEqual([]);
    expect(flagsOf(["--version"])).toEqual([]);
    // A flag given to node is the user's.
    if (raised !== undefined) {
      const name = raised.slice(0, raised.indexOf("="));
      // A V8 flag given to node at other than its default makes V8 refuse the cache: the bundle was
      // compiled from source before the flags were set.
      const fromSource = (flags: string[]) =>
        flags.map((flag) => ({ flags: flag, afterTheCache: false }));
      // Written with underscores, as V8 also reads it.
      expect(
        flagsOf(["check", "forms"], [`--${name.slice(2).replaceAll("-", "_")}=100000`]),
      ).toEqual(fromSource(budget === undefined ? [] : [budget]));
      if (budget !== undefined) {
        // A budget given, at V8's default (the cache is taken) or not.
        expect(flagsOf(["check", "forms"], ["--max-inlined-bytecode-size=460"])).toEqual(expected);
        expect(flagsOf(["check", "forms"], ["--max_inlined_bytecode_size=100"])).toEqual(
          fromSource([raised]),
        );
      }
      // Another flag of the same stem is not the threshold (Node 20's V8 has one; 940 is its default).
      if (name === "--interrupt-budget")
        expect(
          flagsOf(["check", "forms"], ["--interrupt-budget-for-feedback-allocation=940"]),
        ).toEqual(overCapabilities);
    }
  });
});

describe("reports that show no fix, data or group (findings made without them)", () => {
  it("print through the built bin what the in-process CLI prints, and stylish still groups", async () => {
    // 30 findings with a fix, data and a group.
    const app = writeRedundantEntriesApp(
      mkdtempSync(path.join(tmpdir(), "caplint-bin-omit-")),
      "bin.omit",
    );
    const printed = new Map<string, string>();
    for (const format of ["compact", "github", "sarif", "stylish"]) {
      const args = ["check", "--format", format];
      const built = spawnSync(process.execPath, [path.join(ROOT, "bin", "caplint.js"), ...args], {
        cwd: app,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
      });
      const inProcess = await run(args, app);
      expect(built.stderr, format).toBe("");
      expect(built.stdout, format).toBe(inProcess.stdout);
      expect(built.status, format).toBe(inProcess.code);
      printed.set(format, built.stdout);
    }
    const compact = printed.get("compact")!;
    expect(compact.trim().split("\n")).toHaveLength(30);
    expect(compact).toContain('is already granted by "core:default"');
    const stylish = printed.get("stylish")!;
    expect(stylish).toContain('3 permissions are already granted by sets in capability "cap-0"');
    rmSync(app, { recursive: true, force: true });
  });
});

describe("the end of a run", () => {
  const BIN = path.join(ROOT, "bin", "caplint.js");
  // Node emits beforeExit when its loop ran empty; a run the bin ends at once (process.exit) never does.
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-run-end-"));
  const probe = path.join(dir, "probe.cjs");
  writeFileSync(
    probe,
    'process.on("beforeExit", () => require("node:fs").writeSync(2, "loop ran empty\\n"));',
  );
  writeFileSync(
    path.join(dir, "default.json"),
    JSON.stringify({ identifier: "main", windows: ["main"], permissions: ["core:default"] }),
  );
  // 300 files of findings: about 110 KB of report, more than a pipe holds, so writes wait for the reader.
  const files: string[] = [];
  for (let i = 0; i < 300; i++) {
    files.push(`c${i}.json`);
    writeFileSync(
      path.join(dir, `c${i}.json`),
      JSON.stringify({
        identifier: `c${i}`,
        windows: ["main"],
        permissions: ["core:default", `core:nope${i}`, "fs:allow-read-file"],
      }),
    );
  }
  const spawn = (args: string[], stdout: "pipe" | number) =>
    spawnSync(process.execPath, ["--require", probe, BIN, ...args], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", stdout, "pipe"],
      maxBuffer: 1 << 26,
    });
  const intoFile = (args: string[], file: string) => {
    const fd = openSync(path.join(dir, file), "w");
    try {
      return { ...spawn(args, fd), stdout: readFileSync(path.join(dir, file), "utf8") };
    } finally {
      closeSync(fd);
    }
  };

  it("comes when main resolves, with nothing pending, its whole report written into a pipe and into a file", () => {
    const clean = spawn(["check", "default.json"], "pipe");
    expect([clean.status, clean.stdout, clean.stderr]).toEqual([
      0,
      "1 file checked, no problems\n",
      "",
    ]);
    const args = ["check", ...files];
    const piped = spawn(args, "pipe");
    expect([piped.status, piped.stderr]).toEqual([1, ""]);
    expect(piped.stdout.length).toBeGreaterThan(100_000);
    expect(piped.stdout).toContain('unknown permission "core:nope299"');
    const filed = intoFile(args, "report.txt");
    expect([filed.status, filed.stderr]).toEqual([1, ""]);
    expect(filed.stdout).toBe(piped.stdout);
  });

  it("waits for Node's loop when the run made one of Node's streams (here /dev/null's)", () => {
    const fd = openSync("/dev/null", "w");
    try {
      const result = spawn(["check", "default.json"], fd);
      expect([result.status, result.stderr]).toEqual([0, "loop ran empty\n"]);
    } finally {
      closeSync(fd);
    }
  });
});

describe("--version and --help alone", () => {
  const BIN = path.join(ROOT, "bin", "caplint.js");
  const spawn = (bin: string, args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], {
      cwd: CLI,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });

  it("print what the CLI prints, without loading the bundle (a copy without it still answers)", async () => {
    const packageRoot = mkdtempSync(path.join(tmpdir(), "caplint-early-answers-"));
    mkdirSync(path.join(packageRoot, "bin"));
    for (const file of ["package.json", "bin/caplint.js", "bin/package.json"])
      copyFileSync(path.join(ROOT, file), path.join(packageRoot, file));
    // Without dist/'s bundle the bin looks beside prebuilt/'s (absent here too) for the help text.
    mkdirSync(path.join(packageRoot, "prebuilt", "cli-bundle"), { recursive: true });
    copyFileSync(
      path.join(ROOT, "dist", "cli-bundle", "help.txt"),
      path.join(packageRoot, "prebuilt", "cli-bundle", "help.txt"),
    );
    const bundleless = path.join(packageRoot, "bin", "caplint.js");
    for (const args of [["--version"], ["-v"], ["--help"], ["-h"]]) {
      const inProcess = await run(args, CLI);
      for (const bin of [BIN, bundleless]) {
        const spawned = spawn(bin, args);
        expect(
          { code: spawned.status, stdout: spawned.stdout, stderr: spawned.stderr },
          `${bin} ${args.join(" ")}`,
        ).toEqual(inProcess);
      }
    }
    // Anything else goes to the CLI, which the copy lacks.
    expect(spawn(bundleless, ["--version", "check"]).stderr).toMatch(/main\.cjs is missing/);
  });
});

describe("explain - reads standard input as check - does", () => {
  const BIN = path.join(ROOT, "bin", "caplint.js");
  const DEMO = path.join(ROOT, "examples", "demo-app");

  it("waits for a slow writer on a non-blocking pipe (a Node parent that touched its stdin shares one) instead of failing with EAGAIN", () => {
    // The parent's process.stdin makes the shared pipe non-blocking; the message arrives a second later.
    const parent = `process.stdin; const r = require("node:child_process").spawnSync(process.execPath, ${JSON.stringify(
      [BIN, "explain", "-", "-w", "settings", "--platform", "linux", "-f", "json"],
    )}, { stdio: ["inherit", "pipe", "pipe"], encoding: "utf8" }); process.stdout.write(JSON.stringify(r)); process.exit(0);`;
    const shell = spawnSync(
      "bash",
      [
        "-c",
        `(sleep 1; echo 'Command plugin:fs|read_file not allowed by ACL') | '${process.execPath}' -e '${parent}'`,
      ],
      {
        cwd: DEMO,
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    const result = JSON.parse(shell.stdout) as { status: number; stdout: string; stderr: string };
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      refusal: { kind: "release" },
      command: "plugin:fs|read_file",
      window: "settings",
    });
  });
});

describe("Tauri.toml as the app config", () => {
  it("reads the same through the built bin", () => {
    const app = tomlApp();
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, "bin", "caplint.js"), "check", "--format", "compact"],
      {
        cwd: app,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
      },
    );
    expect(result.stdout).toMatch(
      /^src-tauri\/Tauri\.toml:6:\d+: error unknown permission "fs:allow-reed-file"/m,
    );
    expect(result.stdout).not.toMatch(/unmatched-window/);
    expect(result.status).toBe(1);
  });
});

describe("README: Event streams", () => {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");

  it("shows the worked example's real output", () => {
    const block = /```text\n\$ caplint (events [^\n]+)\n([\s\S]*?)```/.exec(readme);
    expect(block).not.toBeNull();
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, "bin", "caplint.js"), ...block![1]!.split(" ")],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(result.stdout).toBe(block![2]);
    expect(result.status).toBe(1);
  });
});

describe("README examples of caplint mcp run through the built bin", () => {
  it("caplint mcp fixtures/mcp/dumps/bad.json", async () => {
    const result = await caplint(["mcp", "fixtures/mcp/dumps/bad.json"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("✖ 25 problems (3 errors, 22 warnings) in 1 file (1 checked)");
  });

  it("caplint mcp --format sarif --output mcp.sarif tools.json", async () => {
    const dir = scratch({ "tools.json": readFileSync(path.join(DUMPS, "good.json"), "utf8") });
    const result = await caplint(
      ["mcp", "--format", "sarif", "--output", "mcp.sarif", "tools.json"],
      { cwd: dir },
    );
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(JSON.parse(readFileSync(path.join(dir, "mcp.sarif"), "utf8")).version).toBe("2.1.0");
  });

  it("caplint mcp --format github tools.json", async () => {
    const dir = scratch({ "tools.json": readFileSync(path.join(DUMPS, "sse.json"), "utf8") });
    const result = await caplint(["mcp", "--format", "github", "tools.json"], { cwd: dir });
    expect(result.stdout).toMatch(/^::warning file=tools\.json,line=3,endLine=3,col=16/m);
  });

  it("caplint mcp on real listings: noun phrases with the action to start with, --list-tools pins list tools (issue 32)", async () => {
    const real = path.join(ROOT, "fixtures", "mcp", "real");
    const verbs = await caplint(
      ["mcp", "-f", "compact", "--only", "mcp-tool-verb", "brave-search.json"],
      { cwd: real },
    );
    expect(verbs.stdout).toContain(
      'warning tool name "brave_web_search" reads as a noun phrase after "brave_": start with the action, e.g. "brave_search_web" [mcp-tool-verb]',
    );
    const pinned = await caplint(
      [
        "mcp",
        "-f",
        "compact",
        "--only",
        "mcp-pagination-params",
        "--list-tools",
        "start_search,!get_recent_tool_calls",
        "desktop-commander.json",
      ],
      {
        cwd: real,
      },
    );
    expect(pinned.stdout).toContain('tool "start_search" is a list tool');
    expect(pinned.stdout).not.toContain('"get_recent_tool_calls"');
  });

  it("caplint.config.json's mcp section pins list tools and adds verbs as the command line does; the command line wins (issue 32)", async () => {
    const real = path.join(ROOT, "fixtures", "mcp", "real");
    const dir = scratch({
      "caplint.config.json": JSON.stringify({
        mcp: { verbs: ["Web"], listTools: { start_search: true, get_recent_tool_calls: false } },
      }),
    });
    copyFileSync(
      path.join(real, "desktop-commander.json"),
      path.join(dir, "desktop-commander.json"),
    );
    copyFileSync(path.join(real, "brave-search.json"), path.join(dir, "brave-search.json"));
    const lists = async (...extra: string[]) =>
      (
        await caplint(
          [
            "mcp",
            "-f",
            "compact",
            "--only",
            "mcp-pagination-params",
            ...extra,
            "desktop-commander.json",
          ],
          { cwd: dir },
        )
      ).stdout;
    const pinned = await lists();
    expect(pinned).toContain('tool "start_search" is a list tool');
    expect(pinned).not.toContain('"get_recent_tool_calls"');
    const overridden = await lists("--list-tools", "!start_search,get_recent_tool_calls");
    expect(overridden).not.toContain('"start_search"');
    expect(overridden).toContain('"get_recent_tool_calls"');
    // Without the config the heuristics decide: start_search returns a session id, get_recent_tool_calls a capped list.
    const unpinned = await caplint(
      ["mcp", "-f", "compact", "--only", "mcp-pagination-params", "desktop-commander.json"],
      { cwd: real },
    );
    expect(unpinned.stdout).not.toContain('"start_search"');
    expect(unpinned.stdout).toContain('"get_recent_tool_calls"');
    // A configured verb (any case) starts an action: "brave_web_search" passes once "web" is one.
    const verbs = await caplint(
      ["mcp", "-f", "compact", "--only", "mcp-tool-verb", "brave-search.json"],
      { cwd: dir },
    );
    expect(verbs.code).toBe(0);
    expect(verbs.stdout).not.toContain("brave_web_search");
    const wrong = scratch({
      "caplint.config.json": JSON.stringify({ mcp: { listTools: { start_search: "yes" } } }),
      "tools.json": "{}",
    });
    const rejected = await caplint(["mcp", "tools.json"], { cwd: wrong });
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toBe(
      `caplint: ${path.join(wrong, "caplint.config.json")}: mcp.listTools.start_search must be boolean\n`,
    );
    writeFileSync(
      path.join(wrong, "caplint.config.json"),
      JSON.stringify({ mcp: { listTool: {} } }),
    );
    const misspelt = await caplint(["mcp", "tools.json"], { cwd: wrong });
    expect(misspelt.stderr).toBe(
      `caplint: ${path.join(wrong, "caplint.config.json")}: mcp unknown field "listTool" (known: verbs, listTools)\n`,
    );
  });

  it("caplint mcp --help names every mode", async () => {
    const result = await caplint(["mcp", "--help"]);
    expect(result.code).toBe(0);
    for (const option of [
      "--stdio",
      "--url",
      "--probe",
      "--max-calls",
      "--timeout",
      "--server-name-style",
      "--service",
      "--verbs",
      "--list-tools",
      "dump",
    ])
      expect(result.stdout).toContain(option);
  });
});

describe('import from "caplint" and "caplint/vitest" (built package)', () => {
  it("resolves through package.json exports", async () => {
    const source = `
      import { createEventValidator, EVENT_RULES, eventsJsonSchema, SERVER_EVENT_TYPES } from "caplint";
      const v = createEventValidator();
      const found = [...v.push('{"type":"tool_done","tool_call_id":1,"result":"x"}'), ...v.end()];
      console.log(JSON.stringify({ found: found.map((d) => d.ruleId), rules: EVENT_RULES.length, types: SERVER_EVENT_TYPES.length, schema: eventsJsonSchema().$schema }));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--input-type=module", "--eval", source],
      { cwd: ROOT },
    );
    expect(JSON.parse(stdout)).toEqual({
      found: ["tool-lifecycle"],
      rules: 10,
      types: 30,
      schema: "http://json-schema.org/draft-07/schema#",
    });
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
    expect(pkg.exports["./vitest"]).toEqual({
      types: "./dist/events/vitest.d.ts",
      default: "./dist/events/vitest.js",
    });
    expect(readFileSync(path.join(ROOT, "dist/events/vitest.d.ts"), "utf8")).toContain(
      "toBeValidEventStream",
    );
  }, 120_000);
});

describe("--fix-dry-run through the built bin", () => {
  it("two one-line fixes in a 24,000-line file print two small hunks, not the whole file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-fix-"));
    const scope = Array.from({ length: 24_000 }, (_, i) => `      { "path": "$APPDATA/f${i}" },`);
    const lines = [
      "{",
      '  "identifier": "main",',
      '  "windows": ["main"],',
      '  "permissions": [',
      '    "core:default",',
      '    "core:default",',
    ];
    lines.push(
      '    { "identifier": "fs:scope", "allow": [',
      ...scope,
      '      { "path": "$APPDATA/last" }',
      "    ] },",
    );
    lines.push('    "fs:allow-read-file",', '    "fs:allow-read-file"', "  ]", "}");
    writeFileSync(path.join(dir, "big.json"), lines.join("\n") + "\n");
    const result = await checkoutBin.run({
      argv: ["check", "--fix-dry-run", "--format", "compact", "big.json"],
      cwd: dir,
    });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(
      [
        "--- a/big.json",
        "+++ b/big.json",
        "@@ -3,7 +3,6 @@",
        '   "windows": ["main"],',
        '   "permissions": [',
        '     "core:default",',
        '-    "core:default",',
        '     { "identifier": "fs:scope", "allow": [',
        '       { "path": "$APPDATA/f0" },',
        '       { "path": "$APPDATA/f1" },',
        "@@ -24007,7 +24006,6 @@",
        '       { "path": "$APPDATA/f23999" },',
        '       { "path": "$APPDATA/last" }',
        "     ] },",
        '-    "fs:allow-read-file",',
        '     "fs:allow-read-file"',
        "   ]",
        " }",
        "",
      ].join("\n"),
    );
  });
});
