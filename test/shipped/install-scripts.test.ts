/**
 * `npm ci` in this repository prints no warning with npm 11 (issue 33 item 2): npm 11 skips and lists
 * every dependency install script that package.json's `allowScripts` does not decide, so each one the
 * lockfile has must be decided there. caplint itself has no install script (its packed manifest is
 * checked in package.test.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

it("every dependency with an install script is decided in package.json's allowScripts", () => {
  const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    allowScripts?: Record<string, boolean>;
    scripts: Record<string, string>;
  };
  const withScripts = Object.entries(lock.packages)
    .filter(([key, entry]) => key !== "" && entry.hasInstallScript)
    .map(([key]) => key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length));
  expect(withScripts.length).toBeGreaterThan(0);
  for (const name of withScripts) expect(manifest.allowScripts, name).toHaveProperty([name]);
  for (const script of ["preinstall", "install", "postinstall", "prepare"])
    expect(manifest.scripts[script], script).toBeUndefined();
});
