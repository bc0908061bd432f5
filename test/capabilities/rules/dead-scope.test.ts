import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resetWork, work } from "../../../src/capabilities/work.js";
import { run } from "../../helpers/run.js";
import { writeCapabilityApp } from "../../helpers/capability-app.js";

const workDir = mkdtempSync(path.join(tmpdir(), "caplint-dead-scope-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("dead-scope's work", () => {
  it("judges unscoped grants from the resolution's sites, making no model entry", async () => {
    // Ten capabilities for three remote URLs, each granting shell execute and spawn without a program,
    // and one for the local pages whose execute grant is scoped. The model's entries, which the rule
    // read before, are one per grant, leaf and context (60 for the ten here, and more for each
    // finding's list of dead commands); the sites make none.
    const remote = {
      urls: ["https://a.example.com/*", "https://b.example.com/*", "https://c.example.com/*"],
    };
    const dir = writeCapabilityApp(path.join(workDir, "app"), "test.dead", [
      ...Array.from({ length: 10 }, (_, i) => ({
        identifier: `c${i}`,
        windows: ["main"],
        remote,
        local: false,
        permissions: ["shell:allow-execute", "shell:allow-spawn"],
      })),
      {
        identifier: "scoped",
        windows: ["main"],
        local: true,
        permissions: [{ identifier: "shell:allow-execute", allow: [{ name: "git", cmd: "git" }] }],
      },
    ]);
    resetWork();
    const result = await run(
      ["check", "--app", dir, "--format", "json", "--only", "dead-scope"],
      workDir,
    );
    expect(result.stderr).toBe("");
    const messages = (
      JSON.parse(result.stdout) as { diagnostics: Array<{ message: string }> }
    ).diagnostics.map((d) => d.message);
    // Each capability's two entries: execute's scoped grant is for the local pages, which its remote
    // pages borrow nothing from; spawn has no scoped grant at all.
    expect(messages).toHaveLength(20);
    expect(messages.filter((m) => m.includes("a remote page borrows none"))).toHaveLength(10);
    expect(messages.filter((m) => m.includes('"shell:allow-spawn" grants nothing'))).toHaveLength(
      10,
    );
    expect(work.resolvedEntries).toBe(0);
  });

  it("judges each scoped entry's identifier once, however many entries name it", async () => {
    // Copies of one capability with three scoped entries: a scope no command of shell:allow-open reads,
    // an fs scope with a field fs does not read, and an opener scope; each copy gets the findings one
    // copy gets, and each distinct identifier is judged once (its plugin, whether it reads a scope,
    // the scope schema's fields), not once per entry.
    const copy = (i: number) => ({
      identifier: `c${i}`,
      windows: ["main"],
      permissions: [
        { identifier: "shell:allow-open", allow: [{ name: "x", cmd: "x" }] },
        { identifier: "fs:allow-read-file", allow: [{ path: "$APPDATA/*", pth: "x" }] },
        { identifier: "opener:allow-open-path", allow: [{ path: "$APPDATA/*" }] },
      ],
    });
    const findings = async (name: string, copies: number) => {
      const dir = writeCapabilityApp(
        path.join(workDir, name),
        "test.dead",
        Array.from({ length: copies }, (_, i) => copy(i)),
      );
      resetWork();
      const result = await run(
        ["check", "--app", dir, "--format", "json", "--only", "dead-scope"],
        workDir,
      );
      expect(result.stderr).toBe("");
      const { diagnostics } = JSON.parse(result.stdout) as {
        diagnostics: Array<{ file: string; message: string }>;
      };
      return {
        diagnostics,
        judged: work.scopedIdentifiersJudged,
        visited: work.scopedEntriesVisited,
      };
    };
    const one = await findings("identifiers-1", 1);
    const many = await findings("identifiers-12", 12);
    expect(one.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining('the "allow" scope on "shell:allow-open" is never read'),
      expect.stringContaining('scope field "pth" is not read by the fs plugin'),
    ]);
    expect(many.visited).toBe(12 * one.visited);
    expect(one.judged).toBe(3);
    // Judged as often as one copy is (36 before: once per entry).
    expect(many.judged).toBe(one.judged);
    expect(many.diagnostics).toHaveLength(12 * one.diagnostics.length);
    for (let i = 0; i < 12; i++)
      expect(
        many.diagnostics
          .filter((d) => path.basename(d.file) === `c${i}.json`)
          .map((d) => d.message),
      ).toEqual(one.diagnostics.map((d) => d.message));
  });
});
