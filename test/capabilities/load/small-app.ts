import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A small app in `root/name`: src-tauri/tauri.conf.json with one window and one capability file
 * granting core:default, plus `files` (paths relative to src-tauri) written as given.
 */
export function smallApp(root: string, name: string, files: Record<string, string> = {}): string {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, "src-tauri", "capabilities"), { recursive: true });
  writeFileSync(
    path.join(dir, "src-tauri", "tauri.conf.json"),
    JSON.stringify({ identifier: "com.example.app", app: { windows: [{ label: "main" }] } }),
  );
  writeFileSync(
    path.join(dir, "src-tauri", "capabilities", "default.json"),
    JSON.stringify({ identifier: "default", windows: ["main"], permissions: ["core:default"] }),
  );
  for (const [file, text] of Object.entries(files))
    writeFileSync(path.join(dir, "src-tauri", file), text);
  return dir;
}
