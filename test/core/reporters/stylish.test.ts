import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../helpers/run.js";

/** A capability with many redundant entries, and a clean second file. */
function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-stylish-"));
  writeFileSync(
    path.join(dir, "main.json"),
    JSON.stringify({
      identifier: "main",
      windows: ["main"],
      permissions: [
        "core:default",
        "dialog:default",
        "dialog:allow-open",
        "dialog:allow-save",
        "dialog:allow-message",
        "core:window:allow-is-visible",
        "shell:default",
        "shell:allow-open",
      ],
    }),
  );
  writeFileSync(
    path.join(dir, "clean.json"),
    JSON.stringify({ identifier: "clean", windows: ["other"], permissions: ["core:default"] }),
  );
  return dir;
}

describe("stylish reporter", () => {
  it("groups a capability's redundant entries into one finding that lists them", async () => {
    const result = await run(["check", "main.json", "clean.json"], project());
    const findings = result.stdout.split("\n").filter((line) => /^\s+\d+:\d+\s/.test(line));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toContain('5 permissions are already granted by sets in capability "main"');
    expect(findings[0]).toContain('"shell:allow-open" (by "shell:default")');
    expect(result.stdout).toContain("help: remove them; --fix removes all 5");
  });

  it("keeps one diagnostic per entry in JSON", async () => {
    const result = await run(["check", "--format", "json", "main.json", "clean.json"], project());
    const redundant = JSON.parse(result.stdout).diagnostics.filter(
      (d: { ruleId: string }) => d.ruleId === "redundant-permission",
    );
    expect(redundant).toHaveLength(5);
  });

  it("counts files with problems apart from files checked", async () => {
    const result = await run(
      ["check", "main.json", "clean.json", "--rule", "redundant-permission=warning"],
      project(),
    );
    expect(result.stdout).toContain("✖ 5 problems (0 errors, 5 warnings) in 1 file (2 checked)");
  });

  it("shows suggestions dimmed and counts them apart from problems", async () => {
    const plain = await run(["check", "main.json", "clean.json"], project());
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(
      /^ {2}\d+:\d+ {2}suggestion {2}5 permissions are already granted/m,
    );
    expect(plain.stdout).toContain(
      "2 files checked, no problems; 5 suggestions (true, but changing nothing at run time)",
    );
    const colored = await run(["check", "main.json", "clean.json", "--color"], project());
    const dim = "\u001b[2m";
    expect(colored.stdout).toContain(`${dim}  1:`);
    expect(colored.stdout).toContain(`${dim}5 suggestions`);
    // With a problem beside them, they get their own line under the count of problems, which leaves them out.
    const dir = project();
    writeFileSync(
      path.join(dir, "typo.json"),
      JSON.stringify({
        identifier: "typo",
        windows: ["main"],
        permissions: ["fs:allow-raed-file"],
      }),
    );
    const mixed = await run(["check", "main.json", "clean.json", "typo.json"], dir);
    expect(mixed.code).toBe(1);
    expect(mixed.stdout).toContain(
      "✖ 1 problem (1 error, 0 warnings) in 1 file (3 checked)\n  5 suggestions (true, but changing nothing at run time)\n",
    );
  });
});
