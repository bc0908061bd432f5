import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FIXTURES, run } from "../helpers/run.js";

// An internal error anywhere in the pipeline: the CLI must still exit 2 with one line.
vi.mock("../../src/capabilities/lint.js", () => ({
  lint: () => {
    throw new TypeError("simulated internal failure");
  },
}));

describe("internal errors", () => {
  const cwd = path.join(FIXTURES, "cli");

  it("print one line and exit 2 without --debug", async () => {
    const result = await run(["check", "forms/single.json"], cwd);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^caplint: internal error \(caplint [\d.]+\): simulated internal failure\ncaplint: rerun with --debug for the stack trace, and report it\n$/,
    );
  });

  it("print the stack trace with --debug", async () => {
    const result = await run(["check", "--debug", "forms/single.json"], cwd);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^caplint: internal error .*\nTypeError: simulated internal failure\n\s+at /,
    );
  });
});
