import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/run.js";

/**
 * docs/security.md says which test holds each guarantee: the names must not rot. Every test file and
 * fixture it names exists, and every row of the hardening tables names at least one test file.
 */
const PAGE = readFileSync(path.join(ROOT, "docs", "security.md"), "utf8");

describe("docs/security.md names tests that exist", () => {
  it("every test file and fixture it names exists", () => {
    const named = [...PAGE.matchAll(/`((?:test|fixtures)\/[^`\s]+)`/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((file) => !existsSync(path.join(ROOT, file)))).toEqual([]);
  });

  it("every row of the round-3 table names a test file", () => {
    const section = PAGE.slice(PAGE.indexOf("### Hardening round 3 (issue 36)"));
    const table = section.slice(0, section.indexOf("\n\n", section.indexOf("|---")));
    const rows = table
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| Failure found"));
    expect(rows.length).toBeGreaterThanOrEqual(19);
    for (const row of rows) expect(row, row.slice(0, 80)).toMatch(/`test\/[^`]+\.test\.ts`/);
  });
});
