import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Writes an app at `dir` for tests that count work: a config with one window, `main`, and each
 * capability in `capabilities/<identifier>.json`. Returns `dir`.
 */
export function writeCapabilityApp(
  dir: string,
  configIdentifier: string,
  capabilities: ReadonlyArray<{ identifier: string } & Record<string, unknown>>,
): string {
  const folder = path.join(dir, "src-tauri", "capabilities");
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(dir, "src-tauri", "tauri.conf.json"),
    JSON.stringify({ identifier: configIdentifier, app: { windows: [{ label: "main" }] } }),
  );
  for (const capability of capabilities)
    writeFileSync(path.join(folder, `${capability.identifier}.json`), JSON.stringify(capability));
  return dir;
}

/**
 * Ten capabilities of three redundant entries each (`core:default` grants them): 30 findings with a
 * fix, data and a group (stylish lists a capability's three as one). Returns `dir`.
 */
export function writeRedundantEntriesApp(dir: string, configIdentifier: string): string {
  return writeCapabilityApp(
    dir,
    configIdentifier,
    Array.from({ length: 10 }, (_, i) => ({
      identifier: `cap-${i}`,
      windows: ["main"],
      permissions: [
        "core:default",
        "core:window:allow-title",
        "core:window:allow-is-enabled",
        "core:menu:allow-set-as-help-menu-for-nsapp",
      ],
    })),
  );
}
