/**
 * What the editor tests share: a real app copied into a temporary project where caplint is installed
 * the way `npm install --save-dev caplint` leaves it (node_modules/caplint, node_modules/.bin/caplint),
 * linked to this checkout's build, so the README's `npx caplint lsp --stdio` runs it; and the README's
 * code blocks by language.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FIXTURES, ROOT } from "../helpers/run.js";

/** ActivityWatch's desktop app (see its SOURCE.txt): Cargo files, a committed acl-manifests.json, two capability files. */
export const REAL_APP = "real-world/build-truth/ActivityWatch__aw-tauri";

export interface EditorProject {
  root: string;
  /** The app's main capability file. */
  capability: string;
  remove: () => void;
}

export function editorProject(): EditorProject {
  const root = mkdtempSync(path.join(tmpdir(), "caplint-editor-"));
  cpSync(path.join(FIXTURES, REAL_APP), root, { recursive: true });
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "aw-tauri", private: true, devDependencies: { caplint: "*" } }, null, 2) + "\n");
  mkdirSync(path.join(root, "node_modules", ".bin"), { recursive: true });
  symlinkSync(ROOT, path.join(root, "node_modules", "caplint"));
  symlinkSync(path.join("..", "caplint", "bin", "caplint.js"), path.join(root, "node_modules", ".bin", "caplint"));
  return {
    root,
    capability: path.join(root, "src-tauri", "capabilities", "default.json"),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The README's fenced blocks in `language`, in order. */
export function readmeBlocks(language: string): string[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  return [...readme.matchAll(new RegExp("^```" + language + "\\n([\\s\\S]*?)^```$", "gm"))].map((m) => m[1]!);
}

export function readmeBlock(language: string, containing: string): string {
  const found = readmeBlocks(language).filter((block) => block.includes(containing));
  if (found.length !== 1) throw new Error(`README.md has ${found.length} \`\`\`${language} blocks with ${containing}, expected one`);
  return found[0]!;
}
