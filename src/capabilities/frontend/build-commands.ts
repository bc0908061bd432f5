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
import { statSync } from "node:fs";

const MAX_DEPTH = 6;
const MAX_COMMANDS = 200;
/** Programs that run a file in Node, Bun or Deno: that file is not frontend code. */
const RUNTIMES = new Set(["node", "bun", "deno", "tsx", "ts-node", "npx", "bunx", "vite-node"]);
const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
const ENTRY_FILE = /\.(?:[cm]?[jt]sx?)$/;

export function buildCommandEntries(root: string, build: { beforeBuildCommand?: unknown; beforeDevCommand?: unknown } | undefined, maxBytes: number): string[] {
  const manifest = readTextFile(path.join(root, "package.json"), maxBytes);
  let scripts: Record<string, unknown> = {};
  if (manifest.ok) {
    try {
      const value: unknown = JSON.parse(manifest.text);
      if (isPlainObject(value) && isPlainObject(value.scripts)) scripts = value.scripts;
    } catch {
      // A package.json that does not parse names no scripts.
    }
  }
  const seeds: string[] = [];
  for (const command of [build?.beforeBuildCommand, build?.beforeDevCommand]) {
    const text = typeof command === "string" ? command : isPlainObject(command) && typeof command.script === "string" ? command.script : undefined;
    if (text) seeds.push(text);
  }
  for (const script of Object.values(scripts)) {
    if (typeof script !== "string") continue;
    const tauri = /\btauri\s+(?:build|dev)\b/.exec(script);
    if (tauri) seeds.push(script.slice(0, tauri.index));
  }
  const entries = new Set<string>();
  const state = { commands: MAX_COMMANDS, visited: new Set<string>() };
  const run = (line: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    for (const part of line.split(/&&|\|\||[;|\n]/)) {
      if (state.commands-- <= 0) return;
      // `NODE_ENV=production vite build`: the assignments before the program are not words of the command.
      const words = shellWords(part);
      while (words.length && /^[A-Za-z_]\w*=/.test(words[0]!)) words.shift();
      const [program, ...args] = words;
      if (program === undefined) continue;
      if (PACKAGE_MANAGERS.has(program)) {
        const name = args[0] === "run" || args[0] === "run-script" ? args[1] : args[0];
        const script = name === undefined ? undefined : scripts[name];
        if (typeof script === "string" && !state.visited.has(`script:${name}`)) {
          state.visited.add(`script:${name}`);
          run(script, depth + 1);
        }
        continue;
      }
      const shell = program === "bash" || program === "sh" ? args.shift() : program;
      if (shell !== undefined && shell.endsWith(".sh")) {
        const file = path.resolve(root, shell);
        if (!isWithin(file, root) || state.visited.has(`${file}\u0000${args.join(" ")}`)) continue;
        state.visited.add(`${file}\u0000${args.join(" ")}`);
        const text = readTextFile(file, maxBytes);
        if (text.ok) for (const command of shellCommands(text.text, args)) run(command, depth + 1);
        continue;
      }
      if (RUNTIMES.has(program)) continue;
      for (const arg of args) {
        if (!ENTRY_FILE.test(arg) || /\.config\.[cm]?[jt]s$/.test(arg) || arg.startsWith("-")) continue;
        const file = path.resolve(root, arg);
        if (isWithin(file, root) && !file.split(path.sep).includes("node_modules") && isFile(file)) entries.add(file);
      }
    }
  };
  for (const seed of seeds) run(seed, 0);
  return [...entries];
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
    value.replace(/\$\{(\w+)(?::?-([^}]*))?\}|\$(\w+)/g, (_whole, braced: string | undefined, fallback: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare)!;
      const known = /^\d+$/.test(name) ? args[Number(name) - 1] : variables.get(name);
      return known !== undefined && known !== "" ? known : (fallback ?? "");
    });
  const commands: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const assignment = /^(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=("(?:[^"\\]|\\.)*"|'[^']*'|[^\s;]*)\s*$/.exec(line);
    if (assignment) {
      const value = assignment[2]!;
      variables.set(assignment[1]!, value.startsWith("'") ? value.slice(1, -1) : expand(value.replace(/^"|"$/g, "")));
    } else commands.push(expand(line));
  }
  return commands;
}
