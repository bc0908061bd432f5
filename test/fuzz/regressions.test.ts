/**
 * The counterexamples the fuzz properties found, kept as plain tests (each failed before its fix).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/run.js";
import { expectCheckReport, parseJson, timedRun } from "./support.js";

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), "caplint-fuzz-regression-"));
}

function fileIn(name: string, content: string): string {
  const dir = tempDir();
  writeFileSync(path.join(dir, name), content);
  return dir;
}

function appWithSets(sets: Array<[string, string[]]>, capabilityRefs: string[]): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, "src-tauri", "capabilities"), { recursive: true });
  mkdirSync(path.join(dir, "src-tauri", "permissions"), { recursive: true });
  const blocks = [`[[permission]]\nidentifier = "allow-x"\ncommands.allow = ["x"]\n`];
  for (const [id, members] of sets)
    blocks.push(
      `[[set]]\nidentifier = "${id}"\ndescription = ""\npermissions = [${members.map((m) => JSON.stringify(m)).join(", ")}]\n`,
    );
  writeFileSync(path.join(dir, "src-tauri", "permissions", "sets.toml"), blocks.join("\n"));
  writeFileSync(
    path.join(dir, "src-tauri", "tauri.conf.json"),
    JSON.stringify({ identifier: "dev.fuzz", app: { windows: [{ label: "main" }] } }),
  );
  writeFileSync(
    path.join(dir, "src-tauri", "capabilities", "main.json"),
    JSON.stringify({ identifier: "main", windows: ["main"], permissions: capabilityRefs }),
  );
  return dir;
}

describe("fuzz regressions", () => {
  // Ajv's uniqueItems check (fast-deep-equal) called an own `toString` key as a method.
  it("a permission entry with a toString or valueOf key is a finding, not an internal error", async () => {
    const dir = fileIn(
      "cap.json",
      '{"permissions":[{},{"toString":[]},{"valueOf":1,"identifier":"fs:default"}]}',
    );
    const result = await run(["check", "--format", "compact", "cap.json"], dir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('capability is missing required field "identifier" [schema]');
  });

  // The same check compared every pair of object entries: 20,000 entries took 16 s, so 30,000 take
  // about 36 s, past the test's time-out.
  it("a capability with 30,000 object entries is checked in seconds", async () => {
    const permissions = Array.from({ length: 30_000 }, (_, i) => ({
      identifier: "fs:scope",
      allow: [{ path: `$APPDATA/${i}` }],
    }));
    const dir = fileIn(
      "big.json",
      JSON.stringify({ identifier: "big", windows: ["main"], permissions }),
    );
    const result = await timedRun(["check", "--format", "json", "big.json"], dir);
    expectCheckReport(result, dir);
  });

  // Values with line breaks were quoted raw, so a finding took two lines of compact output.
  it("line breaks in quoted values are escaped: one line per finding", async () => {
    const dir = fileIn("cap.json", JSON.stringify({ capabilities: 0, "\t\r\n": {} }));
    const result = await run(["check", "--format", "compact", "cap.json"], dir);
    const json = parseJson<{ diagnostics: unknown[] }>(
      await run(["check", "--format", "json", "cap.json"], dir),
      "check",
    );
    expect(result.stdout.split("\n").filter(Boolean).length).toBe(json.diagnostics.length);
    expect(result.stdout).toContain('unknown file field "\t\\r\\n"');
  });

  // A key written twice: JSON.parse (and every rule) uses the last one, but positions and fixes
  // went to the first, so --fix rewrote "linux" and left the real mistakes.
  it("a key written twice: findings and fixes go to the occurrence that counts", async () => {
    const text = [
      "{",
      '  "identifier": "main",',
      '  "windows": ["main"],',
      '  "platforms": ["linux"],',
      '  "permissions": ["core:default"],',
      '  "permissions": ["fs:default", "fs:default"],',
      '  "platforms": ["MacOS"]',
      "}",
      "",
    ].join("\n");
    const dir = fileIn("cap.json", text);
    const before = await run(["check", "--format", "compact", "cap.json"], dir);
    // The host rejects the repeated fields themselves; the other findings are about the last occurrences.
    const repeated = [
      'cap.json:6:3: error field "permissions" is written twice in one object: the host rejects the file ("duplicate field") [schema]',
      'cap.json:7:3: error field "platforms" is written twice in one object: the host rejects the file ("duplicate field") [schema]',
    ];
    expect(before.stdout).toBe(
      [
        repeated[0],
        'cap.json:6:33: suggestion permission "fs:default" is already listed at entry 0 [duplicate-permission]',
        repeated[1],
        'cap.json:7:17: error invalid platform "MacOS": expected one of "linux", "macOS", "windows", "android" or "iOS" (case-sensitive) [invalid-platform]',
        "",
      ].join("\n"),
    );
    const fixed = await run(["check", "--fix", "--format", "compact", "cap.json"], dir);
    expect(fixed).toMatchObject({ code: 1, stdout: [...repeated, ""].join("\n"), stderr: "" });
    expect(readFileSync(path.join(dir, "cap.json"), "utf8")).toBe(
      text
        .replace('["fs:default", "fs:default"]', '["fs:default"]')
        .replace('["MacOS"]', '["macOS"]'),
    );
  });

  // broad-remote matched hosts with the polyfill's backtracking RegExp: 30 wildcards took 9 s, 35 over a
  // minute; 40 would take hours, far past the test's time-out (no wall-clock assertion: see fuzz/support.ts).
  it("a remote URL with many host wildcards is judged quickly", async () => {
    const url = `https://example.com${"*.".repeat(40)}b`;
    const dir = fileIn(
      "cap.json",
      JSON.stringify({
        identifier: "c",
        windows: ["main"],
        remote: { urls: [url] },
        permissions: ["core:default"],
      }),
    );
    const result = await timedRun(["check", "--format", "compact", "cap.json"], dir);
    expect(result.stdout).toContain("matches hosts anyone can register");
  });

  // Sets on a cycle are not memoised: a cycle reached through members listed twice took 2^n steps
  // (20 sets: 7 s per command; 24: about 2 minutes, past the test's time-out; 30: hours).
  it("a cycle of 24 sets that each list the next one twice is reported quickly", async () => {
    const sets = Array.from({ length: 24 }, (_, i): [string, string[]] => [
      `s${i}`,
      [`s${(i + 1) % 24}`, `s${(i + 1) % 24}`],
    ]);
    const dir = appWithSets(sets, ["s0"]);
    const check = await timedRun(["check", "--format", "compact"], dir);
    expect(check.stdout).toContain(
      "permission set s0 takes more than 10,000 steps to expand: its sets reach a cycle over and over; it was not resolved [set-cycle]",
    );
    const access = await timedRun(["access", "--window=main", "--format", "json"], dir);
    expect(access.code).toBe(0);
  });

  // The walks over sets are recursive: a chain of 5,000 sets overflowed the stack (internal error).
  it("a chain of 5,000 sets is refused as too deep, and queries still answer", async () => {
    const sets = Array.from({ length: 5_000 }, (_, i): [string, string[]] => [
      `s${i}`,
      i + 1 < 5_000 ? [`s${i + 1}`, "allow-x"] : ["allow-x"],
    ]);
    const dir = appWithSets(sets, ["s0", "s4900"]);
    const check = await run(["check", "--format", "compact"], dir);
    expect(check.stderr).toBe("");
    expect(check.stdout).toBe(
      "src-tauri/capabilities/main.json:1:56: error permission set s0 nests sets more than 256 levels deep; it was not resolved [set-cycle]\n",
    );
    const access = await run(["access", "--window=main", "--command=x", "--format", "json"], dir);
    expect(access.stderr).toBe("");
    expect(access.code, "granted through s4900, which is shallow enough").toBe(0);
    for (const argv of [["resolve"], ["matrix", "--format", "json"]]) {
      const result = await run(argv, dir);
      expect(result).toMatchObject({ code: 0, stderr: "" });
    }
  });
});
