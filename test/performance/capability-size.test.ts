import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, run } from "../helpers/run.js";

/**
 * Threat: a repository crafted to make the check take hours or all memory (a denial of service on
 * CI), or to crash it so that the other files go unchecked. Each size class is a list or value far
 * beyond real apps; the bound is checked before the expensive work and reported as a finding at
 * its place. No clock: the failures these inputs catch took minutes or gigabytes, far over the tests'
 * time-out and heap; `npm run bench` (row 11) times them through the bin.
 */
const CAPABILITY = { identifier: "main", windows: ["main"], permissions: ["core:default"] };

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-size-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const check = (argv: string[], cwd: string) => run(["check", "--format", "compact", ...argv], cwd);

describe("huge and adversarial inputs stay linear", { timeout: 180_000 }, () => {
  it("20,000 remote.urls, windows and webviews, and 6,000 permissions in one capability", async () => {
    const dir = folder({
      "caps/urls.json": JSON.stringify({
        ...CAPABILITY,
        remote: { urls: Array.from({ length: 20_000 }, (_, i) => `https://h${i}.example.com/*`) },
      }),
      "caps/labels.json": JSON.stringify({
        ...CAPABILITY,
        identifier: "labels",
        windows: Array.from({ length: 20_000 }, (_, i) => `w${i}`),
        webviews: Array.from({ length: 20_000 }, (_, i) => `v${i}`),
      }),
      "caps/entries.json": JSON.stringify({
        ...CAPABILITY,
        identifier: "entries",
        permissions: Array.from({ length: 6_000 }, (_, i) => `core:app:allow-nope-${i}`),
      }),
    });
    const result = await check(["caps"], dir);
    expect(result.stdout).toContain(
      "caps/urls.json:1:89: error remote.urls lists 20,000 entries, over the limit of 1,000 caplint checks in one capability; the rest are not checked [parse]",
    );
    expect(result.stdout).toMatch(
      /caps\/labels\.json:1:\d+: error windows lists 20,000 entries, over the limit of 1,000/,
    );
    expect(result.stdout).toMatch(
      /caps\/labels\.json:1:\d+: error webviews lists 20,000 entries, over the limit of 1,000/,
    );
    expect(result.stdout).toMatch(
      /caps\/entries\.json:1:\d+: error permissions lists 6,000 entries, over the limit of 5,000/,
    );
    // What is under the bound is still checked.
    expect(result.stdout).toContain('unknown permission "core:app:allow-nope-4999"');
    expect(result.stdout).not.toContain('"core:app:allow-nope-5000"');
    expect(result.code).toBe(1);
  });

  it("*a × 40,000 label patterns against 50,000-character labels", async () => {
    const long = "*a".repeat(40_000);
    const dir = folder({
      "src-tauri/tauri.conf.json": JSON.stringify({
        app: { windows: [{ label: `${"a".repeat(50_000)}b` }, { label: "main" }] },
      }),
      "src-tauri/capabilities/main.json": JSON.stringify({
        ...CAPABILITY,
        windows: [long, "main", `${"?".repeat(2_000)}*`],
        webviews: [long],
      }),
    });
    const result = await check([], dir);
    expect(result.stdout).toMatch(
      /invalid window pattern "\*a\*a.*" \(80000 characters\): the pattern is 80,000 characters long, over the limit of 1,024 caplint matches/,
    );
    expect(result.stdout).toMatch(/invalid webview pattern .*over the limit of 1,024/);
    expect(result.stdout).toMatch(/the pattern is 2,001 characters long/);
    // The over-long label was left out of the declared windows, so no window has it: a usage error, shortened.
    const access = await run(
      ["access", "--window", `${"a".repeat(50_000)}b`, "--platform", "linux", "--format", "json"],
      dir,
    );
    expect(access.code).toBe(2);
    expect(access.stderr).toMatch(
      /^caplint: --window a{100}… \(50,001 characters\): no window in tauri\.conf\.json/,
    );
    expect(access.stderr.length).toBeLessThan(500);
  });

  it("many long glob patterns against many long labels: linear per pair, and unmatched-window's comparison bound is a finding", async () => {
    const dir = folder({
      "src-tauri/tauri.conf.json": JSON.stringify({
        app: {
          windows: [
            ...Array.from({ length: 1_200 }, (_, i) => ({ label: `${"a".repeat(1_000)}w${i}` })),
            { label: "main" },
          ],
        },
      }),
      "src-tauri/capabilities/main.json": JSON.stringify({
        ...CAPABILITY,
        windows: ["main", ...Array.from({ length: 60 }, (_, i) => `${"*a".repeat(500)}b${i}`)],
      }),
    });
    const result = await check([], dir);
    // Before: pattern × label per pair and a full edit distance per unmatched pattern, over 5 minutes.
    expect(result.stdout).toMatch(
      /tauri\.conf\.json:1:\d+: error app\.windows lists 1,201 windows, over the limit of 1,000 caplint checks; the rest are not checked \[parse\]/,
    );
    expect(result.stdout).toMatch(
      /main\.json:1:\d+: warning unmatched-window stopped at this pattern: comparing the patterns with the labels reached its limit of 50,000,000 characters, so this and the later glob patterns are not checked \[unmatched-window\]/,
    );
    expect(result.stdout).toMatch(
      /warning window pattern "\*a\*a.*b0" \(1002 characters\) matches no window label/,
    );
    const matrix = await run(["matrix", "--platform", "linux", "--format", "json"], dir);
    expect(matrix.code).toBe(0);
  });

  it("three files of 1,000 remote URL patterns at the length bound: the per-file character bound is a finding", async () => {
    const files: Record<string, string> = {};
    for (const f of [0, 1, 2]) {
      const urls = Array.from(
        { length: 1_000 },
        (_, i) => `https://h${i}x${f}.example.com/${"*a".repeat(2_030)}`,
      );
      files[`caps/c${f}.json`] = JSON.stringify({
        ...CAPABILITY,
        identifier: `c${f}`,
        remote: { urls },
      });
    }
    const result = await check(["caps"], folder(files));
    // Before: 405 s and 2.9 GB.
    for (const f of [0, 1, 2])
      expect(result.stdout).toContain(
        `caps/c${f}.json:1:65502: error the file's remote URL patterns reach 65,536 characters here, the limit caplint compiles in one file; this URL and the file's later ones are not checked [parse]`,
      );
    expect(result.stdout.match(/remote URL patterns reach/g)).toHaveLength(3);
  });

  it("capabilities inlined in tauri.conf.json get the same per-value bounds as files, and a huge inline list stays linear", async () => {
    const inline = (identifier: string, extra: Record<string, unknown>) => ({
      ...CAPABILITY,
      identifier,
      ...extra,
    });
    const config = {
      identifier: "dev.caplint.inline",
      app: {
        windows: [{ label: "main" }, { label: `${"w".repeat(5_000)}` }],
        security: {
          capabilities: [
            "file-cap",
            inline("urls", {
              remote: {
                urls: Array.from({ length: 20_000 }, (_, i) => `https://h${i}.example.com/*`),
              },
            }),
            inline("labels", {
              windows: Array.from({ length: 20_000 }, (_, i) => `w${i}`),
              webviews: Array.from({ length: 1_001 }, (_, i) => `v${i}`),
            }),
            inline("entries", {
              permissions: Array.from({ length: 6_000 }, (_, i) => `core:app:allow-nope-${i}`),
            }),
            inline("long-url", {
              local: false,
              remote: {
                urls: [
                  "https://ok.example.com",
                  `https://example.com/${"a*".repeat(5_000)}`,
                  "https://after.example.com",
                ],
              },
            }),
          ],
        },
      },
    };
    const dir = folder({
      "src-tauri/tauri.conf.json": JSON.stringify(config, null, 1),
      "src-tauri/capabilities/file-cap.json": JSON.stringify({
        ...CAPABILITY,
        identifier: "file-cap",
      }),
    });
    const result = await check([], dir);
    const conf = (line: string) =>
      new RegExp(`^src-tauri/tauri\\.conf\\.json:\\d+:\\d+: error ${line}`, "m");
    expect(result.stdout).toMatch(
      conf(
        "remote\\.urls lists 20,000 entries, over the limit of 1,000 caplint checks in one capability; the rest are not checked \\[parse\\]$",
      ),
    );
    expect(result.stdout).toMatch(conf("windows lists 20,000 entries, over the limit of 1,000"));
    expect(result.stdout).toMatch(conf("webviews lists 1,001 entries, over the limit of 1,000"));
    expect(result.stdout).toMatch(conf("permissions lists 6,000 entries, over the limit of 5,000"));
    expect(result.stdout).toMatch(
      conf(
        "the remote URL pattern is 10,020 characters long, over the limit of 4,096 caplint compiles; it and the URLs after it are not checked \\[parse\\]$",
      ),
    );
    expect(result.stdout).toMatch(
      conf(
        "the window label is 5,000 characters long, over the limit of 1,024 caplint matches; it is not checked \\[parse\\]$",
      ),
    );
    // What is under the bounds is still checked, at its place in tauri.conf.json.
    expect(result.stdout).toMatch(conf('unknown permission "core:app:allow-nope-4999"'));
    expect(result.stdout).not.toContain('"core:app:allow-nope-5000"');
    expect(result.code).toBe(1);
  });

  it("a 9.8 MB file of 800,000 unknown permissions, in bounded memory", () => {
    const dir = folder({});
    const permissions = Array.from({ length: 800_000 }, (_, i) => `x:p${i}`);
    writeFileSync(path.join(dir, "one.json"), JSON.stringify({ ...CAPABILITY, permissions }));
    // Spread over many capabilities: the per-file budget holds where per-list bounds do not.
    writeFileSync(
      path.join(dir, "spread.json"),
      JSON.stringify(
        Array.from({ length: 100 }, (_, c) => ({
          ...CAPABILITY,
          identifier: `c${c}`,
          permissions: permissions.slice(c * 2_000, (c + 1) * 2_000),
        })),
      ),
    );
    expect(statSync(path.join(dir, "one.json")).size).toBeGreaterThan(9_000_000);
    // The heap limit makes memory part of the test: about 50× the input.
    const result = spawnSync(
      process.execPath,
      [
        "--max-old-space-size=700",
        path.join(ROOT, "bin", "caplint.js"),
        "check",
        "-f",
        "compact",
        "one.json",
        "spread.json",
      ],
      { cwd: dir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(
      "one.json:1:55: error permissions lists 800,000 entries, over the limit of 5,000 caplint checks in one capability; the rest are not checked [parse]",
    );
    expect(result.stdout).toMatch(
      /spread\.json:1:\d+: error the file lists more than 30,000 permissions and remote URLs in all/,
    );
    expect(result.status).toBe(1);
  });

  it("3,000-deep TOML dotted keys, and one bad file never aborts the others", async () => {
    const dotted = Array.from({ length: 3_000 }, () => "a").join(".");
    const dir = folder({
      "caps/deep-key.toml": `identifier = "deep"\nwindows = ["main"]\npermissions = []\n${dotted} = 1\n`,
      "caps/deep-table.toml": `identifier = "table"\nwindows = ["main"]\npermissions = []\n[${dotted}]\nx = 1\n`,
      "caps/deep-inline.toml": `identifier = "inline"\nwindows = ["main"]\npermissions = []\nx = { ${dotted} = 1 }\n`,
      "caps/dots-in-values.toml": `identifier = "fine"\ndescription = "${".".repeat(5_000)}"\nwindows = ["main"]\npermissions = ["core:nope"]\n`,
      "caps/good.json": JSON.stringify({
        ...CAPABILITY,
        identifier: "good",
        permissions: ["core:also-nope"],
      }),
    });
    const result = await check(["caps"], dir);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(
      "caps/deep-key.toml:4:514: error dotted keys nest deeper than 256 levels; no capability file needs that [parse]",
    );
    expect(result.stdout).toContain("caps/deep-table.toml:4:");
    expect(result.stdout).toMatch(/caps\/deep-inline\.toml:\d+:\d+: error .*(nest|deep)/);
    expect(result.stdout).toContain(
      'caps/dots-in-values.toml:4:16: error unknown permission "core:nope"',
    );
    expect(result.stdout).toContain(
      'caps/good.json:1:56: error unknown permission "core:also-nope"',
    );
    expect(result.code).toBe(1);
  });

  it("a flat set of 10,001 distinct members is resolved, not refused as a cycle", async () => {
    const members = Array.from({ length: 10_001 }, (_, i) => `p${i}`);
    const permissions = members
      .map((m) => `[[permission]]\nidentifier = "${m}"\ncommands.allow = ["c_${m}"]\n`)
      .join("");
    const nested = members
      .map((m) => `[[set]]\nidentifier = "s-${m}"\ndescription = "one"\npermissions = ["${m}"]\n`)
      .join("");
    const dir = folder({
      "permissions/big.toml": `[[set]]\nidentifier = "big"\ndescription = "all"\npermissions = [${members.map((m) => `"${m}"`).join(", ")}]\n${permissions}`,
      "permissions/sets.toml": `[[set]]\nidentifier = "of-sets"\ndescription = "all, through one set each"\npermissions = [${members.map((m) => `"s-${m}"`).join(", ")}]\n${nested}`,
      "caps/main.json": JSON.stringify({
        identifier: "main",
        windows: ["main"],
        permissions: ["big", "of-sets"],
      }),
    });
    const result = await check(["caps", "--permissions", "permissions"], dir);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    const who = await run(
      ["who-can", "c_p10000", "caps", "--permissions", "permissions", "--format", "json"],
      dir,
    );
    expect(JSON.parse(who.stdout).allowedBy.map((e: { chain: string[] }) => e.chain[0])).toEqual([
      "big",
      "of-sets",
    ]);
  });
});
