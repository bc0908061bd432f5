import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resetWork, work } from "../../../src/capabilities/work.js";
import { run } from "../../helpers/run.js";
import { writeCapabilityApp } from "../../helpers/capability-app.js";

const workDir = mkdtempSync(path.join(tmpdir(), "caplint-dangerous-permission-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** An app of `count` capabilities, each granting an fs write with its own scope of `scope` values. */
function app(count: number, scope: readonly unknown[]): string {
  return writeCapabilityApp(
    path.join(workDir, `app-${count}-${scope.length}`),
    "test.dangers",
    Array.from({ length: count }, (_, i) => ({
      identifier: `c${i}`,
      windows: ["main"],
      permissions: [{ identifier: "fs:allow-write-file", allow: scope }],
    })),
  );
}

/** dangerous-permission's findings on an app, checked in-process (its work counters count them). */
async function dangerFindings(dir: string): Promise<Array<{ message: string }>> {
  const result = await run(
    ["check", "--app", dir, "--format", "json", "--only", "dangerous-permission"],
    workDir,
  );
  expect(result.stderr).toBe("");
  return (JSON.parse(result.stdout) as { diagnostics: Array<{ message: string }> }).diagnostics;
}

describe("dangerous-permission's work", () => {
  it("judges each scope value once: the finding's wording reuses the judgement", async () => {
    // Two broad paths and a narrow one per capability. Judging the grant and then wording its finding
    // read every value twice (60 here); the scope's broad values were then judged once per capability
    // (30), and the ten capabilities' scopes, of one content, are now judged once and their findings
    // worded from that judgement.
    const scope = [{ path: "$HOME/**" }, { path: "/**" }, { path: "$APPDATA/notes" }];
    resetWork();
    const diagnostics = await dangerFindings(app(10, scope));
    expect(diagnostics).toHaveLength(10);
    for (const diagnostic of diagnostics) expect(diagnostic.message).toContain('"$HOME/**", "/**"');
    expect(work.scopeValues).toBe(scope.length);
  });

  it("makes one grant per entry, leaf and command, whatever the capability's contexts", async () => {
    // Three remote URLs beside the local pages: four contexts. A model's entries, which the judging
    // read before, are one per context (80 here: fs:allow-write-file allows two dangerous commands,
    // write_file and write); the judging reads the capability's grants by index, one per command.
    const dir = writeCapabilityApp(
      path.join(workDir, "app-contexts"),
      "test.dangers",
      Array.from({ length: 10 }, (_, i) => ({
        identifier: `c${i}`,
        windows: ["main"],
        remote: {
          urls: ["https://a.example.com/*", "https://b.example.com/*", "https://c.example.com/*"],
        },
        local: true,
        permissions: [{ identifier: "fs:allow-write-file", allow: [{ path: "$HOME/**" }] }],
      })),
    );
    resetWork();
    const diagnostics = await dangerFindings(dir);
    expect(diagnostics).toHaveLength(10);
    expect(diagnostics[0]!.message).toContain("remote pages");
    // The first capability's two grants; each copy of it (the same content, judged once) makes only
    // the grant its finding names (20 before: both grants per copy).
    expect(work.dangerousLeaves).toBe(2 + 9);
    expect(work.resolvedEntries).toBe(0);
  });

  it("makes no grant of a command that every platform of the capability denies", async () => {
    // fs:allow-write-file allows write_file and write; a deny of write_file beside it leaves write.
    // The grants are made in the walk of the capability's sites, before any set is judged: one made for
    // the denied command would never be read (20 here, where 10 are judged).
    const dir = writeCapabilityApp(
      path.join(workDir, "app-denied"),
      "test.dangers",
      Array.from({ length: 10 }, (_, i) => ({
        identifier: `c${i}`,
        windows: ["main"],
        permissions: [
          { identifier: "fs:allow-write-file", allow: [{ path: "$HOME/**" }] },
          "fs:deny-write-file",
        ],
      })),
    );
    resetWork();
    const diagnostics = await dangerFindings(dir);
    expect(diagnostics).toHaveLength(10);
    expect(work.dangerousLeaves).toBe(10);
  });
});
