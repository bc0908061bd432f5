// Shared by the editor tests and scripts/editors-screenshot.mjs: a real app in a temporary project
// where caplint is installed as `npm install --save-dev caplint` leaves it (node_modules/caplint,
// node_modules/.bin/caplint), linked to this checkout's build, so that `npx caplint lsp --stdio`, the
// command the README's editor set-ups run, starts it.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** ActivityWatch's desktop app (see its SOURCE.txt): Cargo files, a committed acl-manifests.json, two capability files. */
export const REAL_APP = "real-world/build-truth/ActivityWatch__aw-tauri";

/** A fresh copy of the app with caplint installed; `capability` is its main capability file. */
export function editorProject() {
  const root = mkdtempSync(path.join(tmpdir(), "caplint-editor-"));
  cpSync(path.join(ROOT, "fixtures", REAL_APP), root, { recursive: true });
  writeFileSync(
    path.join(root, "package.json"),
    JSON.stringify(
      { name: "aw-tauri", private: true, devDependencies: { caplint: "*" } },
      null,
      2,
    ) + "\n",
  );
  mkdirSync(path.join(root, "node_modules", ".bin"), { recursive: true });
  symlinkSync(ROOT, path.join(root, "node_modules", "caplint"));
  symlinkSync(
    path.join("..", "caplint", "bin", "caplint.js"),
    path.join(root, "node_modules", ".bin", "caplint"),
  );
  return {
    root,
    capability: path.join(root, "src-tauri", "capabilities", "default.json"),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
