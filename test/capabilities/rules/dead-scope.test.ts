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
});
