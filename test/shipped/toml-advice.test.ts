/**
 * Issue 33 item 3: every hint, suggested entry and suppression caplint shows for a TOML capability file
 * is TOML (a JSON snippet pasted there does not parse), through the built bin: check (text and JSON
 * output, and the JSON fixes of --fix-dry-run), least-privilege (text and JSON diffs), access --command and
 * explain. The LSP's completion and code actions (a TOML quick fix among them) are tested in
 * test/integrations/lsp.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

let app: string;

function bin(args: string[]) {
  const result = spawnSync(process.execPath, [path.join(ROOT, "bin/caplint.js"), ...args], {
    cwd: app,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", CAPLINT_CARGO_REGISTRY: "off" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  app = mkdtempSync(path.join(tmpdir(), "caplint-toml-advice-"));
  mkdirSync(path.join(app, "src-tauri", "capabilities"), { recursive: true });
  writeFileSync(
    path.join(app, "src-tauri", "tauri.conf.json"),
    JSON.stringify({
      identifier: "dev.toml",
      app: { windows: [{ label: "main" }, { label: "editor" }] },
    }),
  );
  writeFileSync(
    path.join(app, "src-tauri", "capabilities", "main.toml"),
    'identifier = "main"\nwindows = ["main", "editr"]\npermissions = ["core:default"]\n',
  );
  writeFileSync(
    path.join(app, "src-tauri", "capabilities", "broken.toml"),
    'identifier = "broken"\nwindows = "editor"\npermissions = ["core:default"]\n',
  );
});

describe("advice for a TOML capability file is TOML", () => {
  it("check: the suppression a hint proposes and the schema's example are TOML, in text and in JSON output", () => {
    const text = bin(["check"]);
    expect(text.stderr).toBe("");
    expect(text.stdout).toContain('add caplint-disable = ["unmatched-window"] to this capability');
    expect(text.stdout).toContain('write window labels as a list, e.g. windows = ["main"]');
    expect(text.stdout).not.toMatch(/"caplint-disable":|"windows":/);
    const json = JSON.parse(bin(["check", "--format", "json"]).stdout) as {
      diagnostics: Array<{ ruleId: string; hint?: string }>;
    };
    const hints = json.diagnostics.map((d) => d.hint ?? "");
    expect(hints).toContain(
      'did you mean "editor"? If the app creates a window labelled "editr" in code caplint cannot read (a label from another file or crate), the pattern is right: add caplint-disable = ["unmatched-window"] to this capability',
    );
    // The suggested field parses as TOML.
    const suppression = /add (caplint-disable = \[.*?\])/.exec(hints.join("\n"))![1]!;
    expect(parseToml(suppression)).toEqual({ "caplint-disable": ["unmatched-window"] });
  });

  it("check -f json --fix-dry-run: the fix of a TOML file is a TOML diff", () => {
    writeFileSync(
      path.join(app, "src-tauri", "capabilities", "dup.toml"),
      'identifier = "dup"\nwindows = ["main"]\npermissions = ["core:default", "core:default"]\n',
    );
    try {
      const json = JSON.parse(bin(["check", "--format", "json", "--fix-dry-run"]).stdout) as {
        fixes: Array<{ file: string; diff: string }>;
      };
      const fix = json.fixes.find((f) => f.file === "src-tauri/capabilities/dup.toml")!;
      expect(fix.diff).toContain('+permissions = ["core:default"]\n');
      const after = fix.diff
        .split("\n")
        .filter((line) => line.startsWith(" ") || (line.startsWith("+") && !line.startsWith("+++")))
        .map((line) => line.slice(1))
        .join("\n");
      expect(parseToml(after)).toEqual({
        identifier: "dup",
        windows: ["main"],
        permissions: ["core:default"],
      });
    } finally {
      rmSync(path.join(app, "src-tauri", "capabilities", "dup.toml"));
    }
  });

  it("least-privilege: the change to a TOML capability is TOML, in text and JSON", () => {
    mkdirSync(path.join(app, "src"), { recursive: true });
    writeFileSync(
      path.join(app, "package.json"),
      JSON.stringify({ name: "toml-advice", dependencies: { "@tauri-apps/api": "2.5.0" } }),
    );
    writeFileSync(
      path.join(app, "index.html"),
      '<script type="module" src="/src/main.ts"></script>\n',
    );
    writeFileSync(
      path.join(app, "src", "main.ts"),
      'import { invoke } from "@tauri-apps/api/core";\nawait invoke("plugin:window|set_title", { value: "x" });\n',
    );
    try {
      const text = bin(["least-privilege"]);
      // The change to main.toml is a TOML diff; what is left by hand names no JSON field.
      expect(text.stdout).toContain("+++ b/src-tauri/capabilities/main.toml\n");
      expect(text.stdout).toMatch(/^\+permissions = \[/m);
      expect(text.stdout).not.toMatch(/"identifier":|"permissions":/);
      const json = JSON.parse(bin(["least-privilege", "--format", "json"]).stdout) as {
        diffs: Array<{ file: string; diff: string }>;
      };
      const diff = json.diffs.find((d) => d.file === "src-tauri/capabilities/main.toml")!.diff;
      const after = diff
        .split("\n")
        .filter((line) => line.startsWith(" ") || (line.startsWith("+") && !line.startsWith("+++")))
        .map((line) => line.slice(1))
        .join("\n");
      expect(parseToml(after)).toMatchObject({
        identifier: "main",
        permissions: expect.any(Array),
      });
    } finally {
      for (const file of ["package.json", "index.html", "src"])
        rmSync(path.join(app, file), { recursive: true, force: true });
    }
  });

  const refusal = 'fs.read_text_file not allowed on window "main", webview "main", URL: local';

  for (const [name, args] of [
    [
      "access --command",
      ["access", "--window", "main", "--command", "fs.read_text_file", "--platform", "linux"],
    ],
    ["explain", ["explain", refusal, "--platform", "linux"]],
  ] as const) {
    it(`${name}: the entry to add to the TOML capability, and a new capability file, are TOML`, () => {
      const result = bin([...args]);
      expect(result.stderr).toBe("");
      expect(result.stdout).toContain(
        'add this entry to "permissions" of capability main  (src-tauri/capabilities/main.toml:3)',
      );
      const entry = '{ identifier = "fs:allow-read-text-file", allow = [{ path = "<path>" }] }';
      expect(result.stdout).toContain(`    ${entry}\n`);
      expect(parseToml(`permissions = [${entry}]`)).toEqual({
        permissions: [{ identifier: "fs:allow-read-text-file", allow: [{ path: "<path>" }] }],
      });
      // Every capability of this app is TOML: so is the new file.
      expect(result.stdout).toContain(
        "or a capability of its own (src-tauri/capabilities/main-read-text-file.toml):",
      );
      const json = JSON.parse(bin([...args, "--format", "json"]).stdout);
      const suggestion = (json.call ?? json).suggestion;
      expect(suggestion.text.entry).toBe(entry);
      expect(suggestion.text.newCapabilityFile).toBe(
        "src-tauri/capabilities/main-read-text-file.toml",
      );
      expect(parseToml(suggestion.text.newCapability)).toEqual(suggestion.newCapability);
      // The text output shows the same file text.
      for (const line of suggestion.text.newCapability.trimEnd().split("\n"))
        expect(result.stdout).toContain(`    ${line}\n`);
    });
  }
});
