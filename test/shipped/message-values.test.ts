import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkoutBin } from "../helpers/hosts.js";

/** Values from files as messages show them (issue 25, cosmetics), through the built bin. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-values-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const compact = async (argv: string[], cwd: string) =>
  (await checkoutBin.run({ argv: [...argv, "-f", "compact"], cwd })).stdout;

describe("values in messages", { timeout: 60_000 }, () => {
  it("a number is shown as the file writes it: 1e400 is not null (nor Infinity) in capability and MCP messages", async () => {
    const dir = folder({
      "local.json":
        '{"identifier": "a", "windows": ["main"], "permissions": ["core:default"], "local": 1e400}',
      "entry.json": '{"identifier": "b", "windows": ["main"], "permissions": [-1E+400]}',
      "tools.json":
        '{"tools": [{"name": "get_item", "description": "Gets an item.", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": 1e400}}]}',
      "inf.toml":
        'identifier = "c"\nwindows = ["main"]\npermissions = ["core:default"]\nlocal = -inf\n',
    });
    const capabilities = await compact(["check", "local.json", "entry.json", "inf.toml"], dir);
    expect(capabilities).toContain(
      'local.json:1:84: error "local" must be a boolean, found a number (1e400) [schema]',
    );
    expect(capabilities).toMatch(
      /entry\.json:1:\d+: error permission entry 0 must be .*, found a number \(-1E\+400\) \[schema\]/,
    );
    expect(capabilities).toContain(
      'inf.toml:4:1: error "local" must be a boolean, found a number (-inf) [schema]',
    );
    expect(await compact(["mcp", "tools.json"], dir)).toContain(
      'error tool "get_item": annotations.readOnlyHint is 1e400, not a boolean',
    );
    expect(capabilities + (await compact(["mcp", "tools.json"], dir))).not.toContain("null");
  });

  it("a TOML number is shown as written too (the TOML parser keeps no positions: read at its key or array element)", async () => {
    const dir = folder({
      "numbers.toml": [
        'identifier = "c"',
        'windows = ["main", 1_000, 0x1F, 0b101]',
        'permissions = ["core:default", 1.50]',
        "local = +inf",
        "remote = { urls = 0o17 }",
        "description = 6.02E+23",
        "",
        "[platforms]",
        "x = 1",
      ].join("\n"),
      "nan.toml":
        'identifier = "d"\nwindows = ["main"]\npermissions = ["core:default"]\nlocal = nan\ndescription = -0.0\n',
      // The key search meets `local =` inside the description first: its 0x10 is not the value, so the value is shown.
      "decoy.toml":
        'identifier = "e"\nwindows = ["main"]\ndescription = "local = 0x10"\npermissions = ["core:default"]\nlocal = 17\n',
    });
    const output = await compact(["check", "numbers.toml", "nan.toml", "decoy.toml"], dir);
    const shown = output
      .split("\n")
      .map((line) =>
        /^([\w.]+):\d+:\d+: error (.+?) must .*, found a number \((.+)\) \[schema\]$/
          .exec(line)
          ?.slice(1)
          .join(" "),
      )
      .filter(Boolean)
      .sort();
    expect(shown).toEqual([
      'decoy.toml "local" 17',
      'nan.toml "description" -0.0',
      'nan.toml "local" nan',
      'numbers.toml "description" 6.02E+23',
      'numbers.toml "local" +inf',
      'numbers.toml "urls" 0o17',
      'numbers.toml "windows[1]" 1_000',
      'numbers.toml "windows[2]" 0x1F',
      'numbers.toml "windows[3]" 0b101',
      "numbers.toml permission entry 1 1.50",
    ]);
  });

  it("a case-only misspelling of a known identifier suggests it (not a plugin that sounds alike) and is an error: the build fails on it", async () => {
    const dir = folder({
      "caps.json":
        '{"identifier": "a", "windows": ["main"], "permissions": ["Core:Default", "FS:allow-read-file", "Fss:default"]}',
    });
    const result = await checkoutBin.run({ argv: ["check", "caps.json", "-f", "json"], cwd: dir });
    const findings = (
      JSON.parse(result.stdout) as {
        diagnostics: Array<{ severity: string; message: string; hint: string }>;
      }
    ).diagnostics;
    expect(findings.map(({ severity, message, hint }) => ({ severity, message, hint }))).toEqual([
      {
        severity: "error",
        message: 'unknown plugin "Core" in "Core:Default": no manifest defines it',
        hint: 'did you mean "core:default"? Identifiers are case-sensitive',
      },
      {
        severity: "error",
        message: 'unknown plugin "FS" in "FS:allow-read-file": no manifest defines it',
        hint: 'did you mean "fs:allow-read-file"? Identifiers are case-sensitive',
      },
      // Not a known identifier in any case: plugins that sound alike are still offered, as a warning.
      {
        severity: "warning",
        message: 'unknown plugin "Fss" in "Fss:default": no manifest defines it',
        hint: expect.stringMatching(/^did you mean plugin "fs" or "os"\?/) as string,
      },
    ]);
    expect(result.code).toBe(1);
  });

  it("window labels are quoted and escaped, and the empty label is named", async () => {
    const dir = folder({
      "src-tauri/tauri.conf.json": JSON.stringify({
        app: { windows: [{ label: "" }, { label: "main" }, { label: 'say "hi"' }] },
      }),
      "src-tauri/capabilities/main.json": JSON.stringify({
        identifier: "main",
        windows: ["main"],
        permissions: ["core:default"],
      }),
    });
    const result = await checkoutBin.run({ argv: ["access", "--window", "mian"], cwd: dir });
    expect(result.stderr).toBe(
      'caplint: --window mian: no window in tauri.conf.json, no capability pattern and no window made in the app\'s sources has this label (known windows: (empty label), "main" and "say \\"hi\\""); did you mean "main"?\n',
    );
    expect(result.code).toBe(2);
  });
});
