import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { checkoutBin } from "../helpers/hosts.js";
import { FIXTURES } from "../helpers/run.js";

/**
 * Every kind of finding's place in the two formats GitHub reads, through the built bin. SARIF: each
 * `artifactLocation` checked against the SARIF 2.1.0 schema and against what code scanning needs:
 * every result has a location with a non-empty URI; a relative URI (with `uriBaseId`) resolves from
 * the repository root, whatever folder caplint ran in, and names the very file (bytes included) that
 * holds the finding. GitHub annotations: `file=` is relative to the same root (the runner resolves it
 * from the checkout's root), and a finding with no file in the repository has no `file=`.
 */
const SCHEMA_ID =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
const APP = path.join(FIXTURES, "sarif", "app");
const RECORDING = path.join(FIXTURES, "events", "agent-frame", "invalid", "ended-parent.jsonl");
const DUMP = path.join(FIXTURES, "mcp", "mcp-tool-name", "invalid", "names.json");

interface Location {
  physicalLocation: {
    artifactLocation: { uri: string; uriBaseId?: string };
    region?: { startLine: number };
  };
}
interface Log {
  runs: Array<{
    originalUriBaseIds: Record<string, { uri?: string; description?: { text: string } }>;
    results: Array<{ ruleId: string; message: { text: string }; locations?: Location[] }>;
  }>;
}

const validate = (() => {
  const schema = JSON.parse(
    readFileSync(path.join(FIXTURES, "sarif", "sarif-2.1.0.schema.json"), "utf8"),
  ) as Record<string, unknown>;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  ajv.addSchema({ ...schema, $id: SCHEMA_ID });
  return ajv.getSchema(SCHEMA_ID)!;
})();

/** A repository (git init'ed) with two apps, for runs from its root and from inside one app. */
function monorepo(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "caplint-sarif-uris-")));
  mkdirSync(path.join(root, ".git"));
  for (const app of ["desk", "mob"]) cpSync(APP, path.join(root, "apps", app), { recursive: true });
  return root;
}

async function sarif(argv: string[], cwd: string, stdin?: string): Promise<Log> {
  const result = await checkoutBin.run({
    argv: [...argv, "-f", "sarif"],
    cwd,
    ...(stdin === undefined ? {} : { stdin }),
  });
  expect(result.stderr).toBe("");
  const log = JSON.parse(result.stdout) as Log;
  expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
  return log;
}

/** GitHub's rules, and where each URI leads: the file's path as bytes (a relative URI from the base). */
function targets(
  log: Log,
  root: string,
): Array<{ ruleId: string; message: string; file: Buffer; folder: boolean; line?: number }> {
  const [run] = log.runs;
  // The base names the repository root without its absolute path on this machine (SARIF 3.14.14: the consumer supplies it).
  expect(run!.originalUriBaseIds["%SRCROOT%"]).toEqual({
    description: { text: expect.stringMatching(/repository root/) },
  });
  const base = `${pathToFileURL(root).href}/`;
  expect(run!.results.length).toBeGreaterThan(0);
  return run!.results.map((result) => {
    expect(
      result.locations?.length,
      `${result.ruleId}: GitHub rejects a log with a result without a location`,
    ).toBeGreaterThan(0);
    const { artifactLocation, region } = result.locations![0]!.physicalLocation;
    const { uri, uriBaseId } = artifactLocation;
    expect(uri).not.toBe("");
    expect(uri).not.toMatch(/\\|[\s#?]/);
    if (uriBaseId !== undefined) {
      expect(uriBaseId).toBe("%SRCROOT%");
      expect(uri, "a relative reference, not climbing above the base").not.toMatch(
        /^(\/|\.\.\/|[a-z][a-z0-9+.-]*:)/i,
      );
    } else expect(uri).toMatch(/^file:\/\/\//);
    const url = new URL(uri, base);
    return {
      ruleId: result.ruleId,
      message: result.message.text,
      file: Buffer.from(decodeURIComponentBytes(url.pathname)),
      folder: uri.endsWith("/"),
      ...(region ? { line: region.startLine } : {}),
    };
  });
}

/** A URL path's bytes: %FF stays the byte 0xFF (decodeURIComponent would refuse it). */
function decodeURIComponentBytes(pathname: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < pathname.length; i++) {
    if (pathname[i] === "%") {
      bytes.push(parseInt(pathname.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(pathname[i]!));
  }
  return Uint8Array.from(bytes);
}

const pathBytes = (...parts: Array<string | Buffer>) =>
  Buffer.concat(
    parts.map((part, i) =>
      Buffer.concat([i ? Buffer.from("/") : Buffer.alloc(0), Buffer.from(part)]),
    ),
  );

describe("SARIF artifact URIs, for every kind of finding", { timeout: 120_000 }, () => {
  it("capability files: relative to the repository root from any folder, another app of the monorepo included", async () => {
    const root = monorepo();
    for (const [cwd, argv] of [
      [root, ["check"]],
      [path.join(root, "apps", "desk"), ["check"]],
      [path.join(root, "apps", "desk"), ["check", "../mob"]],
      [path.join(root, "apps", "desk", "src-tauri"), ["check", "capabilities/main.json"]],
    ] as const) {
      const log = await sarif([...argv], cwd);
      for (const target of targets(log, root)) {
        expect(target.folder).toBe(false);
        expect(existsSync(target.file), target.file.toString()).toBe(true);
        expect(target.file.toString()).toMatch(
          new RegExp(`^${root}/apps/(desk|mob)/src(-tauri)?/`),
        );
      }
    }
  });

  it("names with spaces, #, %, ?, non-ASCII and bytes that are not UTF-8 are percent-encoded byte for byte", async () => {
    const root = monorepo();
    const folder = Buffer.concat([
      Buffer.from(path.join(root, "apps", "desk", "src-tauri", "capabilities", "x")),
      Buffer.from([0xff]),
    ]);
    mkdirSync(folder);
    const names = [
      Buffer.from("a b#1%25?é.json"),
      Buffer.concat([Buffer.from("c"), Buffer.from([0xfe]), Buffer.from(".json")]),
    ];
    for (const name of names)
      copyFileSync(
        path.join(APP, "src-tauri", "capabilities", "main.json"),
        pathBytes(folder, name),
      );
    const log = await sarif(["check", "apps/desk"], root);
    const uris = log.runs[0]!.results.map(
      (r) => r.locations![0]!.physicalLocation.artifactLocation.uri,
    );
    expect(uris).toContain("apps/desk/src-tauri/capabilities/x%FF/a%20b%231%2525%3F%C3%A9.json");
    expect(uris).toContain("apps/desk/src-tauri/capabilities/x%FF/c%FE.json");
    for (const target of targets(log, root))
      expect(existsSync(target.file), target.file.toString("latin1")).toBe(true);
  });

  it("a file outside the repository: an absolute file URI without a base", async () => {
    const root = monorepo();
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), "caplint-sarif-outside-")));
    copyFileSync(
      path.join(APP, "src-tauri", "capabilities", "remote.json"),
      path.join(outside, "remote cap.json"),
    );
    const log = await sarif(
      ["check", path.join(outside, "remote cap.json")],
      path.join(root, "apps"),
    );
    const locations = log.runs[0]!.results.map(
      (r) => r.locations![0]!.physicalLocation.artifactLocation,
    );
    expect(new Set(locations.map((l) => JSON.stringify(l)))).toEqual(
      new Set([JSON.stringify({ uri: `file://${outside}/remote%20cap.json` })]),
    );
    for (const target of targets(log, root))
      expect(target.file.toString()).toBe(path.join(outside, "remote cap.json"));
  });

  it("--stdin-filename: the named file's URI, also when it does not exist yet", async () => {
    const root = monorepo();
    const text = readFileSync(path.join(APP, "src-tauri", "capabilities", "main.json"), "utf8");
    for (const name of [
      "src-tauri/capabilities/main.json",
      "src-tauri/capabilities/new one.json",
    ]) {
      const log = await sarif(
        ["check", "-", "--stdin-filename", name],
        path.join(root, "apps", "desk"),
        text,
      );
      for (const target of targets(log, root))
        expect(target.file.toString()).toBe(path.join(root, "apps", "desk", name));
    }
  });

  it("standard input without a name: at the folder caplint ran in, the message saying where (live servers: test/integrations/mcp/servers.test.ts)", async () => {
    const root = monorepo();
    const cwd = path.join(root, "apps", "desk");
    const capability = readFileSync(
      path.join(APP, "src-tauri", "capabilities", "main.json"),
      "utf8",
    );
    const recording = readFileSync(RECORDING, "utf8");
    for (const log of [
      await sarif(["check", "-"], cwd, capability),
      await sarif(["events"], cwd, recording),
    ]) {
      for (const target of targets(log, root)) {
        expect(target).toMatchObject({ folder: true, file: Buffer.from(`${cwd}/`) });
        expect(target.line).toBeUndefined();
        expect(target.message).toMatch(/^<stdin>:\d+:\d+: /);
      }
    }
    const atRoot = await sarif(["events"], root, recording);
    expect(atRoot.runs[0]!.results[0]!.locations![0]!.physicalLocation.artifactLocation).toEqual({
      uri: "./",
      uriBaseId: "%SRCROOT%",
    });
  });

  it("event recordings and MCP dumps: their file, with the finding's line", async () => {
    const root = monorepo();
    mkdirSync(path.join(root, "recordings"));
    copyFileSync(RECORDING, path.join(root, "recordings", "run 1.jsonl"));
    copyFileSync(DUMP, path.join(root, "recordings", "tools.json"));
    for (const [argv, file] of [
      [["events", "run 1.jsonl"], "run 1.jsonl"],
      [["mcp", "tools.json"], "tools.json"],
    ] as const) {
      const log = await sarif([...argv], path.join(root, "recordings"));
      for (const target of targets(log, root)) {
        expect(target.file.toString()).toBe(path.join(root, "recordings", file));
        expect(target.line).toBeGreaterThan(0);
      }
    }
  });
});

/** One workflow command decoded as the Actions runner does (ActionCommand.cs): properties split at `,`, then at the first `=`. */
interface Annotation {
  command: string;
  properties: Record<string, string>;
  message: string;
}

async function annotations(argv: string[], cwd: string, stdin?: string): Promise<Annotation[]> {
  const result = await checkoutBin.run({
    argv: [...argv, "-f", "github"],
    cwd,
    ...(stdin === undefined ? {} : { stdin }),
  });
  expect(result.stderr).toBe("");
  const lines = result.stdout.split("\n").filter(Boolean);
  expect(lines.length).toBeGreaterThan(0);
  return lines.map((line) => {
    const match = /^::(error|warning|notice) ([^]*?)::([^]*)$/.exec(line);
    expect(match, `every line is one workflow command: ${line}`).not.toBeNull();
    const unescape = (text: string) =>
      text
        .replace(/%3A/g, ":")
        .replace(/%2C/g, ",")
        .replace(/%0D/g, "\r")
        .replace(/%0A/g, "\n")
        .replace(/%25/g, "%");
    const properties: Record<string, string> = {};
    for (const pair of match![2]!.split(","))
      properties[pair.slice(0, pair.indexOf("="))] = unescape(pair.slice(pair.indexOf("=") + 1));
    return { command: match![1]!, properties, message: unescape(match![3]!) };
  });
}

/** The files the annotations name, each checked to exist when read from the repository root. */
function annotatedFiles(found: Annotation[], root: string): string[] {
  return found.map(({ properties }) => {
    expect(properties.file, "an annotation with a file").toBeDefined();
    expect(properties.file, "relative, from the root").not.toMatch(/^(\/|\.\.\/)/);
    expect(existsSync(path.join(root, properties.file!)), properties.file).toBe(true);
    return properties.file!;
  });
}

describe("GitHub annotation files, for every kind of finding", { timeout: 120_000 }, () => {
  it("capability files: relative to the repository root from any folder, another app of the monorepo included", async () => {
    const root = monorepo();
    for (const [cwd, argv, app] of [
      [root, ["check"], "(desk|mob)"],
      [path.join(root, "apps", "desk"), ["check"], "desk"],
      [path.join(root, "apps", "desk"), ["check", "../mob"], "mob"],
      [path.join(root, "apps", "desk", "src-tauri"), ["check", "capabilities/main.json"], "desk"],
    ] as const) {
      const files = annotatedFiles(await annotations([...argv], cwd), root);
      for (const file of files) expect(file).toMatch(new RegExp(`^apps/${app}/src(-tauri)?/`));
    }
  });

  it("odd names keep their characters (a newline stays %0A, never a line of its own); a name that is not UTF-8 is shown with \\xHH", async () => {
    const root = monorepo();
    const folder = path.join(root, "apps", "desk", "src-tauri", "capabilities", "x");
    mkdirSync(folder);
    for (const name of ["a b#1%25?é,:.json", "forged\n::error file=x.json::owned.json"])
      copyFileSync(
        path.join(APP, "src-tauri", "capabilities", "main.json"),
        path.join(folder, name),
      );
    copyFileSync(
      path.join(APP, "src-tauri", "capabilities", "main.json"),
      Buffer.concat([Buffer.from(`${folder}/c`), Buffer.from([0xfe]), Buffer.from(".json")]),
    );
    const found = await annotations(["check", "."], path.join(root, "apps", "desk"));
    const files = new Set(found.map((a) => a.properties.file));
    expect(files).toContain("apps/desk/src-tauri/capabilities/x/a b#1%25?é,:.json");
    expect(files).toContain(
      "apps/desk/src-tauri/capabilities/x/forged\n::error file=x.json::owned.json",
    );
    expect(files).toContain("apps/desk/src-tauri/capabilities/x/c\\xfe.json");
    annotatedFiles(
      found.filter((a) => !a.properties.file!.includes("\\x")),
      root,
    );
  });

  it("a file outside the repository, and standard input without a name: no file=, the message says where", async () => {
    const root = monorepo();
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), "caplint-github-outside-")));
    copyFileSync(
      path.join(APP, "src-tauri", "capabilities", "remote.json"),
      path.join(outside, "remote cap.json"),
    );
    const cwd = path.join(root, "apps", "desk");
    const capability = readFileSync(
      path.join(APP, "src-tauri", "capabilities", "main.json"),
      "utf8",
    );
    for (const [found, where] of [
      [
        await annotations(["check", path.join(outside, "remote cap.json")], cwd),
        /^\/.*\/remote cap\.json:\d+:\d+: /,
      ],
      [await annotations(["check", "-"], cwd, capability), /^<stdin>:\d+:\d+: /],
      [await annotations(["events"], cwd, readFileSync(RECORDING, "utf8")), /^<stdin>:\d+:\d+: /],
    ] as const) {
      for (const { properties, message } of found) {
        expect(properties.file).toBeUndefined();
        expect(properties.line).toBeUndefined();
        expect(message).toMatch(where);
      }
    }
  });

  it("--stdin-filename, event recordings and MCP dumps: their file from the root", async () => {
    const root = monorepo();
    const text = readFileSync(path.join(APP, "src-tauri", "capabilities", "main.json"), "utf8");
    const named = await annotations(
      ["check", "-", "--stdin-filename", "src-tauri/capabilities/new one.json"],
      path.join(root, "apps", "desk"),
      text,
    );
    expect(new Set(named.map((a) => a.properties.file))).toEqual(
      new Set(["apps/desk/src-tauri/capabilities/new one.json"]),
    );
    mkdirSync(path.join(root, "recordings", "ci"), { recursive: true });
    copyFileSync(RECORDING, path.join(root, "recordings", "run 1.jsonl"));
    copyFileSync(DUMP, path.join(root, "recordings", "tools.json"));
    for (const [argv, file] of [
      [["events", "../run 1.jsonl"], "recordings/run 1.jsonl"],
      [["mcp", "../tools.json"], "recordings/tools.json"],
    ] as const) {
      const found = await annotations([...argv], path.join(root, "recordings", "ci"));
      expect(new Set(annotatedFiles(found, root))).toEqual(new Set([file]));
      for (const { properties } of found) expect(Number(properties.line)).toBeGreaterThan(0);
    }
  });

  it("diff --base and --head from a sub-folder: the work tree's file, in annotations and SARIF (not the snapshot git was read into)", async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), "caplint-diff-locations-")));
    const git = (...args: string[]) => {
      const result = spawnSync(
        "git",
        ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
        { cwd: root, encoding: "utf8" },
      );
      expect(result.status, result.stderr).toBe(0);
    };
    git("init", "-q", "-b", "main");
    cpSync(path.join(FIXTURES, "queries", "app"), path.join(root, "apps", "desk"), {
      recursive: true,
    });
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    cpSync(
      path.join(FIXTURES, "queries", "app-v2", "src-tauri", "capabilities"),
      path.join(root, "apps", "desk", "src-tauri", "capabilities"),
      {
        recursive: true,
      },
    );
    const cwd = path.join(root, "apps", "desk", "src-tauri");
    const remote = "apps/desk/src-tauri/capabilities/remote.json";
    for (const argv of [
      ["diff", "--base", "main"],
      ["diff", "--base", "HEAD~1", "--head", "HEAD"],
    ]) {
      if (argv.includes("--head")) {
        git("add", "-A");
        git("commit", "-q", "-m", "v2");
      }
      expect(new Set(annotatedFiles(await annotations(argv, cwd), root))).toEqual(
        new Set([remote]),
      );
      const log = await sarif(argv, cwd);
      for (const target of targets(log, root))
        expect(target.file.toString()).toBe(path.join(root, remote));
    }
  });
});
