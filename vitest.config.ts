import { availableParallelism } from "node:os";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

/**
 * The suite in six projects, one script each (CONTRIBUTING.md "Tests"); `npm test` runs them all.
 * A project is a folder of test/; `unit` is every other test file, in a tree that mirrors src/, so a
 * new file runs somewhere by default, and the fast loop (`npm run test:unit`) stays in-process: no
 * build, no child processes, no servers.
 */
const PROJECTS = {
  /** Through the built bin or package (shipped/), or against a real external tool, live server or git repository (integrations/). */
  integration: ["test/shipped/**/*.test.ts", "test/integrations/**/*.test.ts"],
  /** Generated inputs (fast-check): `FUZZ_RUNS=5000 npm run test:fuzz` runs thousands of cases. */
  fuzz: ["test/fuzz/**/*.test.ts"],
  /**
   * Sweeps of whole corpora: every real-world app, every JSON fixture. In-process like `unit`, but
   * seconds each, so the fast loop leaves them to `npm run test:corpus` and `npm test`.
   */
  corpus: ["test/corpus/**/*.test.ts"],
  /** Huge inputs that guard linear growth and bounded memory by counting work, not by a clock. */
  performance: ["test/performance/**/*.test.ts"],
  /** A real Chromium (playwright-core) on the HTML report. */
  browser: ["test/browser/**/*.test.ts"],
};

const project = (
  name: string,
  include: string[],
  exclude: string[] = [],
): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, exclude },
});

export default defineConfig({
  test: {
    // The default output, then every skipped test with the reason it was skipped.
    reporters: ["default", "./test/helpers/skip-reporter.ts"],
    // Most files wait on a child process (the built bin, git, npm, a server): vitest's default of one
    // worker per core but one leaves a two-core CI runner running them one at a time, half idle.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    // Set-up and clean-up hooks remove temporary projects of thousands of files: on a loaded two-core
    // machine that can take longer than vitest's 10 s default.
    hookTimeout: 60_000,
    // A test that checks nothing fails, instead of passing: an early return, or a loop over an empty list.
    expect: { requireAssertions: true },
    // A missing expected-output file must fail in CI instead of being written.
    update: process.env.CI ? false : undefined,
    projects: [
      project("unit", ["test/**/*.test.ts"], Object.values(PROJECTS).flat()),
      ...Object.entries(PROJECTS).map(([name, include]) => project(name, include)),
    ],
  },
});
