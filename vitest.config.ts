import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // A missing expected-output file must fail in CI instead of being written.
    update: process.env.CI ? false : undefined,
  },
});
