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
