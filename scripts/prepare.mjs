// npm's `prepare`: after `npm install`/`npm ci` in a checkout, and when npm installs caplint from git
// (pre-commit's `language: node` hook does). A release commit (scripts/release-commit.mjs) carries the
// built CLI: nothing to build there, which matters because npm installs a git dependency's
// devDependencies where its build cannot find them (pre-commit 4 with npm 11: `sh: 1: tsc: not
// found`). Everywhere else: the build.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PREBUILT_MARKER } from "./lib/runtime-files.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
if (existsSync(`${root}/${PREBUILT_MARKER}`)) process.exit(0);
const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
process.exit(build.status ?? 1);
