import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

const BIN = path.join(ROOT, "bin", "caplint.js");

describe("names of Object.prototype's members are plain values", () => {
  it('"platforms": ["constructor", "toString", "__proto__"] get no hint built from the prototype chain (built bin)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-prototype-"));
    const capability = {
      identifier: "x",
      windows: ["main"],
      permissions: ["core:default"],
      platforms: ["constructor", "toString", "__proto__", "darwin"],
    };
    writeFileSync(path.join(dir, "cap.json"), JSON.stringify(capability));
    const result = spawnSync(process.execPath, [BIN, "check", "-f", "json", "cap.json"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as {
      diagnostics: Array<{ ruleId: string; message: string; hint?: string }>;
    };
    const findings = report.diagnostics.filter((m) => m.ruleId === "invalid-platform");
    expect(findings.map((m) => [m.message.match(/"([^"]+)"/)![1], m.hint ?? null])).toEqual([
      ["constructor", null],
      ["toString", null],
      ["__proto__", null],
      ["darwin", 'write "macOS"'],
    ]);
  });
});
