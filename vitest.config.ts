import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The default output, then every skipped test with the reason it was skipped.
    reporters: ["default", "./test/helpers/skip-reporter.ts"],
    testTimeout: 30_000,
    // Set-up and clean-up hooks remove temporary projects of thousands of files: on a loaded two-core
    // machine that can take longer than vitest's 10 s default.
    hookTimeout: 60_000,
    // A missing expected-output file must fail in CI instead of being written.
    update: process.env.CI ? false : undefined,
  },
});
