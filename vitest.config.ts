import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

/**
 * The suite in five projects, one script each (CONTRIBUTING.md "Tests"); `npm test` runs them all.
 * `unit` is every test file no other project claims, so a new file runs somewhere by default, and the
 * fast loop (`npm run test:unit`) stays in-process: no build, no child processes, no servers.
 */
const PROJECTS = {
  /** Through the built bin or package, or against a real external tool, server or git repository. */
  integration: [
    "test/integrations/**/*.test.ts",
    "test/shipped/**/*.test.ts",
    "test/lsp/**/*.test.ts",
    "test/diff-base.test.ts",
    "test/events/cli.test.ts",
    "test/fix-toml.test.ts",
    "test/hostile.test.ts",
    "test/mcp/hardening.test.ts",
    "test/mcp/live.test.ts",
    "test/mcp/secrets.test.ts",
    "test/mcp/server-process.test.ts",
    "test/mcp/servers.test.ts",
    "test/prototype-names.test.ts",
    "test/queries-color.test.ts",
    "test/query-flags.test.ts",
    "test/reporters/sarif.test.ts",
    "test/reporters/sarif-uris.test.ts",
    "test/schema-command.test.ts",
    "test/security/file-names.test.ts",
    "test/security/output.test.ts",
    "test/spelling.test.ts",
    "test/stdin-filename.test.ts",
    "test/versions.test.ts",
    "test/watch.test.ts",
    "test/whole-app.test.ts",
  ],
  /** Generated inputs (fast-check): `FUZZ_RUNS=5000 npm run test:fuzz` runs thousands of cases. */
  fuzz: ["test/fuzz/**/*.test.ts", "test/engine/properties.test.ts", "test/engine/glob-differential.test.ts"],
  /** Huge inputs that guard linear growth and bounded memory by counting work, not by a clock. */
  performance: [
    "test/performance/**/*.test.ts",
    "test/engine/performance.test.ts",
    "test/events/bounds.test.ts",
    "test/mcp/bounds.test.ts",
    "test/security/size.test.ts",
  ],
  /** A real Chromium (playwright-core) on the HTML report. */
  browser: ["test/report-browser.test.ts"],
};

const project = (name: string, include: string[], exclude: string[] = []): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, exclude },
});

export default defineConfig({
  test: {
    // The default output, then every skipped test with the reason it was skipped.
    reporters: ["default", "./test/helpers/skip-reporter.ts"],
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
