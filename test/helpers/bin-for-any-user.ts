import { chmodSync, cpSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
// @ts-expect-error: a plain ES module shared with scripts/release-commit.mjs, no types.
import { RUNTIME_BUILD, RUNTIME_SOURCES } from "../../scripts/lib/runtime-files.mjs";
import { ROOT } from "./run.js";

let copy: string | undefined;

/**
 * The built bin, for tests that run it as another user (`nobody`): a copy of what it needs at run
 * time in a folder every user can read. The checkout itself may be in a private folder (a clone in a
 * 0700 home), where another user cannot even find bin/caplint.js. One copy per test file.
 */
export function binForAnyUser(): string {
  if (copy === undefined) {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-any-user-"));
    for (const entry of [...RUNTIME_SOURCES, ...RUNTIME_BUILD])
      cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
    openToEveryone(dir);
    copy = path.join(dir, "bin", "caplint.js");
  }
  return copy;
}

/** Folders 0755, files 0644 (0755 when executable), whatever the checkout's umask made them. */
function openToEveryone(target: string): void {
  const info = statSync(target);
  if (info.isDirectory()) {
    chmodSync(target, 0o755);
    for (const name of readdirSync(target)) openToEveryone(path.join(target, name));
  } else {
    chmodSync(target, info.mode & 0o100 ? 0o755 : 0o644);
  }
}
