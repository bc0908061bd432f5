import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resetWork, work } from "../../src/capabilities/work.js";
import { run } from "../helpers/run.js";
import { writeCapabilityApp } from "../helpers/capability-app.js";

/**
 * dangerous-permission judges a capability's dangers once per distinct content of its dangerous
 * grants (`dangerContentKey`): an app's copies of a capability under other identifiers share one
 * judgement, and each copy's finding is worded with what names it. Counted, not timed.
 */
const workDir = mkdtempSync(path.join(tmpdir(), "caplint-danger-judging-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

type CapabilityFile = { identifier: string } & Record<string, unknown>;

interface Finding {
  file: string;
  line: number;
  column: number;
  severity: string;
  message: string;
}

/** dangerous-permission's findings on an app, checked in-process, and the judgements it made. */
async function judged(
  name: string,
  capabilities: readonly CapabilityFile[],
  argv: readonly string[] = [],
  files: Record<string, unknown> = {},
): Promise<{ findings: Finding[]; judgements: number }> {
  const dir = writeCapabilityApp(path.join(workDir, name), "test.judging", capabilities);
  for (const [file, content] of Object.entries(files))
    writeFileSync(path.join(dir, "src-tauri", file), JSON.stringify(content, null, 2));
  resetWork();
  const result = await run(
    ["check", "--app", dir, "--format", "json", "--only", "dangerous-permission", ...argv],
    workDir,
  );
  expect(result.stderr).toBe("");
  const { diagnostics } = JSON.parse(result.stdout) as { diagnostics: Finding[] };
  const findings = diagnostics.map(({ file, line, column, severity, message }) => ({
    file: path.basename(file),
    line,
    column,
    severity,
    message,
  }));
  return { findings, judgements: work.dangerJudgements };
}

/** A capability with three dangers: fs writes (own scope), the shell (own scope) and the opener's any path. */
function base(identifier: string, extra: Record<string, unknown> = {}): CapabilityFile {
  return {
    identifier,
    windows: ["main"],
    permissions: [
      { identifier: "fs:allow-write-file", allow: [{ path: "$HOME/**" }] },
      { identifier: "shell:allow-execute", allow: [{ name: "sh", cmd: "sh", args: true }] },
      { identifier: "opener:allow-open-path", allow: [{ path: "/**" }] },
    ],
    ...extra,
  };
}

describe("dangerous-permission judges each distinct capability content once", () => {
  it("judges 24 copies of a capability once and words each copy's finding with its own names", async () => {
    // Each copy grants fs writes without a scope of its own and lends a broad path to every grant
    // through the plugin's global scope: a finding points at the copy's own fs:scope entry and names
    // the other copies as lenders, never itself.
    const copy = (i: number): CapabilityFile => ({
      identifier: `c${String(i).padStart(2, "0")}`,
      windows: ["main"],
      permissions: [
        "fs:allow-write-file",
        { identifier: "fs:scope", allow: [{ path: "$HOME/**" }] },
        { identifier: "shell:allow-execute", allow: [{ name: "sh", cmd: "sh", args: true }] },
      ],
    });
    const one = await judged("copies-1", [copy(0)]);
    const many = await judged(
      "copies-24",
      Array.from({ length: 24 }, (_, i) => copy(i)),
    );
    expect(one.judgements).toBe(2);
    expect(one.findings).toHaveLength(2);
    // Judged as often as one copy is (48 before: once per copy).
    expect(many.judgements).toBe(one.judgements);
    expect(many.findings).toHaveLength(24 * 2);
    const fsFindings = many.findings.filter((finding) => finding.message.includes("fs:allow"));
    expect(fsFindings).toHaveLength(24);
    for (const [i, finding] of fsFindings.entries()) {
      const own = `c${String(i).padStart(2, "0")}`;
      expect(finding.file).toBe(`${own}.json`);
      expect(finding.message).toContain(`with the scope of "fs:scope"`);
      expect(finding.message).toContain("through the plugin's global scope, which capability");
      expect(finding.message).not.toContain(`"${own}"`);
      expect(finding.message).toContain("and 18 more sets for every window");
    }
    // The copy's own fs:scope entry (the second of its permissions), not the first copy's.
    expect(new Set(fsFindings.map((finding) => finding.line)).size).toBe(1);
    expect(fsFindings[0]!.message).toContain('"c01", "c02", "c03", "c04", "c05" and 18 more');
    expect(fsFindings[3]!.message).toContain('"c00", "c01", "c02", "c04", "c05" and 18 more');
  });

  // Capabilities that differ from `base` in one thing the judgement reads, each judged apart: in one
  // app beside copies of `base`, each gives the findings it gives alone. (A content key that missed
  // what a variant changes would hand it `base`'s judgement: fewer judgements, and its findings wrong.)
  const variants: Array<[string, CapabilityFile, boolean]> = [
    // The scope values an entry adds.
    [
      "own-allow",
      base("v-own-allow", {
        permissions: [
          { identifier: "fs:allow-write-file", allow: [{ path: "/**" }] },
          { identifier: "shell:allow-execute", allow: [{ name: "sh", cmd: "sh", args: true }] },
          { identifier: "opener:allow-open-path", allow: [{ path: "/**" }] },
        ],
      }),
      false,
    ],
    // What the entry denies: the broad path is denied, so fs writes are not dangerous.
    [
      "own-deny",
      base("v-own-deny", {
        permissions: [
          {
            identifier: "fs:allow-write-file",
            allow: [{ path: "$HOME/**" }],
            deny: [{ path: "$HOME/**" }],
          },
          { identifier: "shell:allow-execute", allow: [{ name: "sh", cmd: "sh", args: true }] },
          { identifier: "opener:allow-open-path", allow: [{ path: "/**" }] },
        ],
      }),
      false,
    ],
    // Which permission the entry grants (other commands).
    [
      "identifier",
      base("v-identifier", {
        permissions: [
          { identifier: "fs:allow-write-text-file", allow: [{ path: "$HOME/**" }] },
          { identifier: "shell:allow-execute", allow: [{ name: "sh", cmd: "sh", args: true }] },
          { identifier: "opener:allow-open-path", allow: [{ path: "/**" }] },
        ],
      }),
      false,
    ],
    // Where the entries are: an entry before them moves every finding's path.
    [
      "position",
      base("v-position", {
        permissions: [
          "core:default",
          { identifier: "fs:allow-write-file", allow: [{ path: "$HOME/**" }] },
          { identifier: "shell:allow-execute", allow: [{ name: "sh", cmd: "sh", args: true }] },
          { identifier: "opener:allow-open-path", allow: [{ path: "/**" }] },
        ],
      }),
      false,
    ],
    // The platforms the capability is on.
    ["platforms", base("v-platforms", { platforms: ["linux", "macOS"] }), false],
    // Remote pages: the same judgement, worded as an error for the remote pages that get it.
    [
      "remote",
      base("v-remote", { remote: { urls: ["https://app.example.com/*"] }, local: true }),
      true,
    ],
    // Every window: the same judgement, worded for every window.
    ["every-window", base("v-every-window", { windows: ["*"] }), true],
  ];

  it.each(variants)(
    "judges a capability that differs in %s apart from the copies it does not equal",
    async (name, variant, sameJudgement) => {
      const copies = Array.from({ length: 4 }, (_, i) => base(`base-${i}`));
      const alone = await judged(`${name}-alone`, [variant]);
      const copiesAlone = await judged(`${name}-copies`, copies);
      const together = await judged(`${name}-together`, [...copies, variant]);
      expect(copiesAlone.judgements).toBe(3);
      expect(together.judgements).toBe(
        sameJudgement ? copiesAlone.judgements : copiesAlone.judgements + alone.judgements,
      );
      expect(together.findings).toEqual(
        [...copiesAlone.findings, ...alone.findings].sort(
          (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column,
        ),
      );
    },
  );

  it("judges apart a capability that a platform config leaves out", async () => {
    // The config lists every capability; Linux's lists the copies only: the variant is on the other
    // platforms, with the same entries and no platforms of its own.
    const copies = Array.from({ length: 4 }, (_, i) => base(`base-${i}`));
    const variant = base("v-config");
    const config = (identifiers: string[]) => ({
      identifier: "test.judging",
      app: { windows: [{ label: "main" }], security: { capabilities: identifiers } },
    });
    const ids = copies.map((capability) => capability.identifier);
    const files = {
      "tauri.conf.json": config([...ids, "v-config"]),
      "tauri.linux.conf.json": { app: { security: { capabilities: ids } } },
    };
    const copiesAlone = await judged("config-copies", copies);
    const together = await judged("config-together", [...copies, variant], [], files);
    expect(copiesAlone.judgements).toBe(3);
    expect(together.judgements).toBe(2 * copiesAlone.judgements);
    expect(together.findings).toHaveLength(5 * 3);
  });

  it("judges capabilities of one list file once, each finding at its own entry", async () => {
    // Two capabilities in one file: their entries' paths differ ([0, ...] and [1, ...]); each finding
    // points at its own capability's entry, and the judgement is shared.
    const list = await judged("list-file", [], [], {
      "capabilities/both.json": [base("first"), base("second")],
    });
    expect(list.judgements).toBe(3);
    expect(list.findings).toHaveLength(2 * 3);
    const lines = list.findings.map((finding) => finding.line);
    expect(new Set(lines).size).toBe(6);
  });

  it("judges apart capabilities on the same checked platforms that list others", async () => {
    // Checked for Linux only, both capabilities are on Linux; `cmd` runs on Windows alone, so only the
    // one that also lists Windows grants a program that runs somewhere.
    const shell = (identifier: string, platforms: string[]): CapabilityFile => ({
      identifier,
      windows: ["main"],
      platforms,
      permissions: [
        { identifier: "shell:allow-execute", allow: [{ name: "cmd", cmd: "cmd", args: true }] },
      ],
    });
    const argv = ["--platform", "linux"];
    const linuxOnly = await judged("listed-linux", [shell("a-linux", ["linux"])], argv);
    const both = await judged("listed-both", [shell("b-both", ["linux", "windows"])], argv);
    expect(linuxOnly.findings).toHaveLength(0);
    expect(both.findings).toHaveLength(1);
    const together = await judged(
      "listed-together",
      [shell("a-linux", ["linux"]), shell("b-both", ["linux", "windows"])],
      argv,
    );
    expect(together.judgements).toBe(2);
    expect(together.findings).toEqual(both.findings);
  });
});
