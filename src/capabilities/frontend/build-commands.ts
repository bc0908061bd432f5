/**
 * Entry files the app's build commands name. Some frameworks take their entry from the command line, not
 * from a page: RouteVN's Rettangoli framework bundles the file given to `rtgl fe build -s` (its build
 * script passes `src/setup.tauri.js` for the Tauri build and `src/setup.web.js` for the web one), and no
 * HTML page names it. The commands read are those the Tauri build runs: tauri.conf's `beforeBuildCommand`
 * and `beforeDevCommand`, and what a package.json script runs before `tauri build` / `tauri dev` in the
 * same line, followed through `npm run`, `pnpm`, `yarn` and `bun run` and through the app's own shell
 * scripts (their positional arguments and the variables they set, as the shell would expand them).
 * A file counts when a command passes it as an argument and it is a script of the frontend: not a
 * bundler's config (`vite.config.ts`), not a file Node runs (`node scripts/x.js`). Bounded in depth,
 * commands and bytes; nothing outside the frontend folder is read.
 */
import path from "node:path";
import { isPlainObject } from "../../core/json.js";
import { isWithin, readTextFile } from "../../core/source/read.js";
import { readdirSync, statSync } from "node:fs";

const MAX_DEPTH = 6;
const MAX_COMMANDS = 200;
/** How many workspace packages are read to find one by name. */
const MAX_PACKAGES = 200;
/** Programs that run a file in Node, Bun or Deno: that file is not frontend code. */
const RUNTIMES = new Set(["node", "bun", "deno", "tsx", "ts-node", "npx", "bunx", "vite-node"]);
const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
const ENTRY_FILE = /\.(?:[cm]?[jt]sx?)$/;

export function buildCommandEntries(
  root: string,
  build: BuildCommands | undefined,
  maxBytes: number,
): string[] {
  return followBuildCommands(root, build, maxBytes).entries;
}

export interface BuildCommands {
  beforeBuildCommand?: unknown;
  beforeDevCommand?: unknown;
}

export interface FollowedCommands {
  /** Script files the commands hand to a program (`rtgl fe build -s src/setup.tauri.js`). */
  entries: string[];
  /**
   * Other package folders whose scripts the commands run: workspace packages (`pnpm --filter @app/web build`,
   * `npm -w web run build`, `yarn workspace web build`) and folders (`pnpm -C web build`, `cd web && npm run build`).
   */
  projects: string[];
}

/** Follows the build's commands from the package folder `root`, where the Tauri CLI runs them. */
export function followBuildCommands(
  root: string,
  build: BuildCommands | undefined,
  maxBytes: number,
): FollowedCommands {
  const scriptsMemo = new Map<string, Record<string, unknown>>();
  const scriptsOf = (dir: string): Record<string, unknown> => {
    let scripts = scriptsMemo.get(dir);
    if (scripts === undefined) {
      const manifest = readManifest(dir, maxBytes);
      scripts = manifest && isPlainObject(manifest.scripts) ? manifest.scripts : {};
      scriptsMemo.set(dir, scripts);
    }
    return scripts;
  };
  let workspace: Map<string, string> | undefined;
  const packageFolder = (name: string): string | undefined => {
    workspace ??= workspacePackages(root, maxBytes);
    if (name.startsWith(".") || name.startsWith("{")) {
      const folder = path.resolve(root, name.replace(/^\{|\}$/g, ""));
      return isWithin(folder, root) && [...workspace.values()].includes(folder)
        ? folder
        : undefined;
    }
    return workspace.get(name);
  };
  const seeds: string[] = [];
  for (const command of [build?.beforeBuildCommand, build?.beforeDevCommand]) {
    const text =
      typeof command === "string"
        ? command
        : isPlainObject(command) && typeof command.script === "string"
          ? command.script
          : undefined;
    if (text) seeds.push(text);
  }
  for (const script of Object.values(scriptsOf(root))) {
    if (typeof script !== "string") continue;
    const tauri = /\btauri\s+(?:build|dev)\b/.exec(script);
    if (tauri) seeds.push(script.slice(0, tauri.index));
  }
  const entries = new Set<string>();
  const projects = new Set<string>();
  const state = { commands: MAX_COMMANDS, visited: new Set<string>() };
  /** Runs a package script of the folder `dir`, as `npm run <name>` there would. */
  const runScript = (dir: string, name: string | undefined, depth: number): void => {
    const script = name === undefined ? undefined : scriptsOf(dir)[name];
    if (typeof script !== "string" || state.visited.has(`${dir}\u0000script:${name}`)) return;
    state.visited.add(`${dir}\u0000script:${name}`);
    if (dir !== root) projects.add(dir);
    run(script, dir, depth + 1);
  };
  const run = (line: string, start: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    // `cd web && npm run build`: the rest of the line runs in that folder.
    let dir = start;
    for (const part of line.split(/&&|\|\||[;|\n]/)) {
      if (state.commands-- <= 0) return;
      // `NODE_ENV=production vite build`: the assignments before the program are not words of the command.
      const words = shellWords(part);
      while (words.length && /^[A-Za-z_]\w*=/.test(words[0]!)) words.shift();
      const [program, ...args] = words;
      if (program === undefined) continue;
      if (program === "cd") {
        const folder = args[0] === undefined ? undefined : path.resolve(dir, args[0]);
        if (folder !== undefined && isWithin(folder, root)) dir = folder;
        continue;
      }
      if (PACKAGE_MANAGERS.has(program)) {
        const { folder, rest } = packageManagerTarget(program, args, dir, packageFolder);
        if (folder === undefined) continue;
        const name = rest[0] === "run" || rest[0] === "run-script" ? rest[1] : rest[0];
        if (name !== undefined && typeof scriptsOf(folder)[name] === "string")
          runScript(folder, name, depth);
        // `pnpm run-p web:build`: a program the package installs, run with its arguments.
        else if (name !== undefined && RUN_ALL.has(name))
          for (const script of runAllScripts(rest.slice(1))) runScript(folder, script, depth);
        continue;
      }
      if (RUN_ALL.has(program)) {
        for (const script of runAllScripts(args)) runScript(dir, script, depth);
        continue;
      }
      const shell = program === "bash" || program === "sh" ? args.shift() : program;
      if (shell !== undefined && shell.endsWith(".sh")) {
        const file = path.resolve(dir, shell);
        if (!isWithin(file, root) || state.visited.has(`${file}\u0000${args.join(" ")}`)) continue;
        state.visited.add(`${file}\u0000${args.join(" ")}`);
        const text = readTextFile(file, maxBytes);
        if (text.ok)
          for (const command of shellCommands(text.text, args)) run(command, dir, depth + 1);
        continue;
      }
      if (RUNTIMES.has(program)) continue;
      for (const arg of args) {
        if (!ENTRY_FILE.test(arg) || /\.config\.[cm]?[jt]s$/.test(arg) || arg.startsWith("-"))
          continue;
        const file = path.resolve(dir, arg);
        if (isWithin(file, root) && !file.split(path.sep).includes("node_modules") && isFile(file))
          entries.add(file);
      }
    }
  };
  for (const seed of seeds) run(seed, root, 0);
  return { entries: [...entries], projects: [...projects] };
}

/** npm-run-all's programs: their plain arguments name package scripts (`run-p web:build generate:git-info`). */
const RUN_ALL = new Set(["run-p", "run-s", "npm-run-all", "npm-run-all2"]);

function runAllScripts(args: readonly string[]): string[] {
  const scripts: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--") break;
    // Options, and script patterns (`lint:*`), which are not followed.
    if (arg.startsWith("-") || /[*?{]/.test(arg)) continue;
    scripts.push(arg);
  }
  return scripts;
}

/**
 * The package folder a package manager's command runs in, and its words after the options that choose it:
 * `pnpm --filter <name>`/`-F`, `pnpm -C <dir>`/`--dir`, `npm -w <name>`/`--workspace`, `npm --prefix <dir>`,
 * `yarn workspace <name>`, `yarn --cwd <dir>`. A filter the workspace does not hold (a glob, `...`) chooses none.
 */
function packageManagerTarget(
  program: string,
  args: readonly string[],
  dir: string,
  packageFolder: (name: string) => string | undefined,
): { folder: string | undefined; rest: string[] } {
  let folder: string | undefined = dir;
  const rest: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const option = /^(--filter|-F|--workspace|-w|-C|--dir|--prefix|--cwd)(?:=(.*))?$/.exec(arg);
    if (option && rest.length === 0) {
      const value = option[2] ?? args[++index];
      if (value === undefined) return { folder: undefined, rest };
      const byPath =
        option[1] === "-C" ||
        option[1] === "--dir" ||
        option[1] === "--prefix" ||
        option[1] === "--cwd";
      folder = byPath ? path.resolve(dir, value) : packageFolder(value);
      if (folder === undefined) return { folder, rest };
      continue;
    }
    if (program === "yarn" && arg === "workspace" && rest.length === 0) {
      const value = args[++index];
      folder = value === undefined ? undefined : packageFolder(value);
      if (folder === undefined) return { folder, rest };
      continue;
    }
    rest.push(arg);
  }
  return { folder, rest };
}

/** The workspace's packages by name: pnpm-workspace.yaml's `packages`, else package.json's `workspaces` (`dir/*` and plain folders). */
function workspacePackages(root: string, maxBytes: number): Map<string, string> {
  const patterns: string[] = [];
  const pnpm = readTextFile(path.join(root, "pnpm-workspace.yaml"), maxBytes);
  if (pnpm.ok) {
    let inPackages = false;
    for (const line of pnpm.text.split("\n")) {
      if (/^\S/.test(line)) inPackages = /^packages\s*:/.test(line);
      const item = inPackages ? /^\s+-\s*["']?([^"'#\s]+)["']?/.exec(line) : null;
      if (item) patterns.push(item[1]!);
    }
  } else {
    const manifest = readManifest(root, maxBytes);
    const workspaces = manifest?.workspaces;
    const list = Array.isArray(workspaces)
      ? workspaces
      : isPlainObject(workspaces) && Array.isArray(workspaces.packages)
        ? workspaces.packages
        : [];
    for (const item of list) if (typeof item === "string") patterns.push(item);
  }
  const packages = new Map<string, string>();
  for (const pattern of patterns) {
    if (pattern.startsWith("!")) continue;
    const wildcard = /^(.*?)\/\*{1,2}$/.exec(pattern);
    const base = path.resolve(root, wildcard ? wildcard[1]! : pattern);
    if (!isWithin(base, root) || /[*?{]/.test(path.relative(root, base))) continue;
    let folders = [base];
    if (wildcard) {
      try {
        folders = readdirSync(base, { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && entry.name !== "node_modules")
          .map((entry) => path.join(base, entry.name));
      } catch {
        folders = [];
      }
    }
    for (const folder of folders.slice(0, MAX_PACKAGES)) {
      if (packages.size >= MAX_PACKAGES) return packages;
      const name = readManifest(folder, maxBytes)?.name;
      if (typeof name === "string" && !packages.has(name)) packages.set(name, folder);
    }
  }
  return packages;
}

function readManifest(dir: string, maxBytes: number): Record<string, unknown> | undefined {
  const manifest = readTextFile(path.join(dir, "package.json"), maxBytes);
  if (!manifest.ok) return undefined;
  try {
    const value: unknown = JSON.parse(manifest.text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    // A package.json that does not parse names nothing.
    return undefined;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The words of a command, quotes removed (no globbing, no substitution: those are left as written). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const match of command.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    const word = match[1] ?? match[2] ?? match[3]!;
    if (word.startsWith("#")) break;
    words.push(word.replace(/^["']|["']$/g, ""));
  }
  return words;
}

/**
 * The commands of a shell script with its variables expanded: positional parameters (`$1`, `${1:-web}`)
 * from `args`, and the plain assignments the script makes before (`SETUP_FILE="src/setup.${BUILD_TYPE}.js"`).
 * Control flow is not followed: every command line counts, as a build could run any of them.
 */
function shellCommands(text: string, args: readonly string[]): string[] {
  const variables = new Map<string, string>();
  const expand = (value: string) =>
    value.replace(
      /\$\{(\w+)(?::?-([^}]*))?\}|\$(\w+)/g,
      (
        _whole,
        braced: string | undefined,
        fallback: string | undefined,
        bare: string | undefined,
      ) => {
        const name = (braced ?? bare)!;
        const known = /^\d+$/.test(name) ? args[Number(name) - 1] : variables.get(name);
        return known !== undefined && known !== "" ? known : (fallback ?? "");
      },
    );
  const commands: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const assignment =
      /^(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=("(?:[^"\\]|\\.)*"|'[^']*'|[^\s;]*)\s*$/.exec(
        line,
      );
    if (assignment) {
      const value = assignment[2]!;
      variables.set(
        assignment[1]!,
        value.startsWith("'") ? value.slice(1, -1) : expand(value.replace(/^"|"$/g, "")),
      );
    } else commands.push(expand(line));
  }
  return commands;
}
