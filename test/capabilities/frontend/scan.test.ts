import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ApiLookup, ApiMember } from "../../../src/capabilities/frontend/api.js";
import {
  scanFrontend,
  type FrontendScan,
  type ModuleCache,
} from "../../../src/capabilities/frontend/scan.js";

/** A few members of Tauri's packages, as the generated map gives them (the scan only reads this shape). */
const MEMBERS: Record<string, Record<string, ApiMember>> = {
  "@tauri-apps/api/core": { invoke: { commands: ["{0}"] } },
  "@tauri-apps/api/window": {
    getCurrentWindow: { commands: [], returns: "Window" },
    "Window#setTitle": { commands: ["plugin:window|set_title"] },
    "Window#close": { commands: ["plugin:window|close"] },
    "Window#show": { commands: ["plugin:window|show"] },
    "Window#minimize": { commands: ["plugin:window|minimize"] },
    "Window.getByLabel": { commands: ["plugin:window|get_all_windows"], returns: "Window" },
    getAllWindows: { commands: ["plugin:window|get_all_windows"], returnsArrayOf: "Window" },
    "Window#hide": { commands: ["plugin:window|hide"] },
  },
  "@tauri-apps/plugin-sql": {
    default: { commands: [], returns: "Database" },
    "Database.load": { commands: ["plugin:sql|load"], returns: "Database" },
    "Database#execute": { commands: ["plugin:sql|execute"] },
  },
  "@tauri-apps/plugin-store": {
    Store: { commands: [] },
    "Store#get": { commands: ["plugin:store|get"] },
  },
  "@tauri-apps/plugin-shell": {
    "Command.create": { commands: [], returns: "Command" },
    "Command#execute": { commands: ["plugin:shell|execute"] },
  },
  "@tauri-apps/plugin-process": { relaunch: { commands: ["plugin:process|restart"] } },
  "@tauri-apps/plugin-dialog": { open: { commands: ["plugin:dialog|open"] } },
};

const api: ApiLookup = {
  module: (specifier) =>
    MEMBERS[specifier] ? { member: (name) => MEMBERS[specifier]![name] } : undefined,
  globalNamespace: (namespace) =>
    ({ core: "@tauri-apps/api/core", window: "@tauri-apps/api/window" })[namespace],
  implicit: (trigger) =>
    trigger === "data-tauri-drag-region" ? ["plugin:window|start_dragging"] : [],
};

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function app(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "caplint-frontend-"));
  dirs.push(root);
  mkdirSync(path.join(root, ".git"));
  for (const [name, text] of Object.entries({
    "package.json": "{}",
    "src-tauri/tauri.conf.json": "{}",
    ...files,
  })) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

async function scan(
  root: string,
  windows: Array<{ label: string; url?: string }> = [{ label: "main" }],
  config = {},
  cache?: ModuleCache,
): Promise<FrontendScan> {
  const result = await scanFrontend({
    appRoot: root,
    srcTauri: path.join(root, "src-tauri"),
    boundary: root,
    cwd: root,
    maxBytes: 1_000_000,
    apiFor: () => api,
    windows,
    config,
    ...(cache ? { cache } : {}),
  });
  return result!;
}

const calls = (result: FrontendScan) =>
  result.calls.map(
    (call) =>
      `${call.displayFile}:${call.line}:${call.column} ${call.member} ${call.commands.join(",")}`,
  );

describe("frontend scan", () => {
  it("a request two tsconfig paths match resolves by the longer one, in every run (oxc tries its aliases in no fixed order)", async () => {
    // readest's shape: `@/*` and `@/components/ui/*` → primitives, in a tsconfig whose `extends` is not
    // installed (its paths are then read as aliases). Each scan makes a new resolver, whose alias order is
    // random: 24 scans all agree only if the order no longer matters (before the fix about half failed).
    const root = app({
      "tsconfig.json": JSON.stringify({
        extends: "@sindresorhus/tsconfig",
        compilerOptions: {
          paths: { "@/*": ["./src/*"], "@/components/ui/*": ["./src/components/primitives/*"] },
        },
      }),
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": 'import { close } from "@/components/ui/button";\nclose();',
      "src/components/primitives/button.ts":
        'import { getCurrentWindow } from "@tauri-apps/api/window";\nexport function close() { return getCurrentWindow().close(); }',
    });
    const seen = new Set<string>();
    for (let run = 0; run < 24; run++) seen.add(JSON.stringify(calls(await scan(root))));
    expect([...seen]).toEqual([
      JSON.stringify(["src/components/primitives/button.ts:2:34 Window#close plugin:window|close"]),
    ]);
  });

  it("follows imports from the page through barrels, renames, wrappers and returned objects; unreachable files do not count", async () => {
    const root = app({
      "index.html":
        '<html><body><div data-tauri-drag-region></div><script type="module" src="/src/main.ts"></script></body></html>',
      "src/main.ts": [
        'import { appWindow, call } from "./lib";',
        'import { invoke as run } from "@tauri-apps/api/core";',
        'import Database from "@tauri-apps/plugin-sql";',
        'appWindow.setTitle("x");',
        'run("save_note");',
        'call("load_notes");',
        "const db = await Database.load('sqlite:a.db');",
        'db.execute("insert");',
        "const cmd = (globalThis as any).x; run(cmd);",
        'document.querySelector("button")!.onclick = appWindow.close;',
      ].join("\n"),
      "src/lib/index.ts": 'export * from "./window";\nexport { callCommand as call } from "./ipc";',
      "src/lib/window.ts":
        'import { getCurrentWindow } from "@tauri-apps/api/window";\nexport const appWindow = getCurrentWindow();',
      "src/lib/ipc.ts":
        'import { invoke } from "@tauri-apps/api/core";\nexport async function callCommand<T>(cmd: string, args?: object) { return invoke<T>(cmd, args); }',
      "src/unused.ts": 'import { relaunch } from "@tauri-apps/plugin-process";\nrelaunch();',
    });
    const result = await scan(root);
    expect(calls(result)).toEqual([
      "index.html:1:18 data-tauri-drag-region plugin:window|start_dragging",
      "src/main.ts:4:1 Window#setTitle plugin:window|set_title",
      "src/main.ts:5:1 invoke save_note",
      "src/main.ts:6:1 invoke load_notes",
      "src/main.ts:7:18 Database.load plugin:sql|load",
      "src/main.ts:8:1 Database#execute plugin:sql|execute",
      "src/main.ts:10:45 Window#close plugin:window|close",
    ]);
    expect(
      result.unresolved.map(
        (call) => `${call.displayFile}:${call.line}:${call.column} ${call.unresolved}`,
      ),
    ).toEqual(["src/main.ts:9:36 argument 1 (the command) is not a literal"]);
    expect(result.files.map((file) => path.relative(root, file))).not.toContain("src/unused.ts");
  });

  it("reads dynamic imports, window.__TAURI__, classes, typed parameters, Vue and Svelte templates, and JSX drag regions", async () => {
    const root = app({
      "index.html": '<script type="module" src="/src/main.tsx"></script>',
      "src/main.tsx": [
        'import "./App.vue";',
        'import "./Panel.svelte";',
        'import { Store } from "@tauri-apps/plugin-store";',
        'import { Command } from "@tauri-apps/plugin-shell";',
        'import type { Window } from "@tauri-apps/api/window";',
        'const { relaunch } = await import("@tauri-apps/plugin-process");',
        "await relaunch();",
        'import("@tauri-apps/plugin-dialog").then((dialog) => dialog.open());',
        'window.__TAURI__.core.invoke("greet");',
        'const store = new Store("a.json"); store.get("k");',
        'await Command.create("git", ["status"]).execute();',
        "function hide(win: Window) { win.minimize(); }",
        "export const Bar = () => <div data-tauri-drag-region className='bar' />;",
      ].join("\n"),
      "src/App.vue":
        '<template><button @click="win.show()">x</button></template>\n<script setup lang="ts">\nimport { getCurrentWindow } from "@tauri-apps/api/window";\nconst win = getCurrentWindow();\n</script>',
      "src/Panel.svelte":
        '<script>\n  import { getCurrentWindow } from "@tauri-apps/api/window";\n</script>\n<button on:click={() => getCurrentWindow().close()}>x</button>',
    });
    const result = await scan(root);
    expect(calls(result)).toEqual([
      "src/App.vue:1:27 Window#show plugin:window|show",
      "src/Panel.svelte:4:25 Window#close plugin:window|close",
      "src/main.tsx:7:7 relaunch plugin:process|restart",
      "src/main.tsx:8:54 open plugin:dialog|open",
      "src/main.tsx:9:1 invoke greet",
      "src/main.tsx:10:36 Store#get plugin:store|get",
      "src/main.tsx:11:7 Command#execute plugin:shell|execute",
      "src/main.tsx:12:30 Window#minimize plugin:window|minimize",
      "src/main.tsx:13:31 data-tauri-drag-region plugin:window|start_dragging",
    ]);
  });
});

describe("frontend scan: what the app's own functions and arrays hand on", () => {
  // Shapes met in real apps whose calls the scan missed: a Database loaded in a helper and used by its callers,
  // windows from getAllWindows() walked with forEach, for…of, find and an index.
  it("follows values returned by the app's functions and the elements of arrays of windows", async () => {
    const root = app({
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": [
        'import Database from "@tauri-apps/plugin-sql";',
        'import { getAllWindows } from "@tauri-apps/api/window";',
        'import { getDb } from "./db";',
        "let db: Database | null = null;",
        "async function cached() { if (!db) db = await Database.load('sqlite:a.db'); return db; }",
        'export async function save() { (await cached()).execute("a"); const other = await getDb(); await other.execute("b"); }',
        "export async function closeAll() { const all = await getAllWindows(); all.forEach((w) => w.close()); }",
        "export async function hideAll() { for (const w of await getAllWindows()) await w.hide(); }",
        'export async function showOne() { (await getAllWindows()).find((w) => w.label === "a")?.show(); (await getAllWindows())[0].minimize(); }',
        "function again(): Promise<never> { return again(); }",
        "save(); closeAll(); hideAll(); showOne(); again();",
      ].join("\n"),
      "src/db.ts":
        'import Database from "@tauri-apps/plugin-sql";\nexport const getDb = () => Database.load("sqlite:b.db");',
    });
    const result = await scan(root);
    expect(calls(result)).toEqual([
      "src/db.ts:2:28 Database.load plugin:sql|load",
      "src/main.ts:5:47 Database.load plugin:sql|load",
      "src/main.ts:6:32 Database#execute plugin:sql|execute",
      "src/main.ts:6:98 Database#execute plugin:sql|execute",
      "src/main.ts:7:54 getAllWindows plugin:window|get_all_windows",
      "src/main.ts:7:90 Window#close plugin:window|close",
      "src/main.ts:8:57 getAllWindows plugin:window|get_all_windows",
      "src/main.ts:8:80 Window#hide plugin:window|hide",
      "src/main.ts:9:35 Window#show plugin:window|show",
      "src/main.ts:9:42 getAllWindows plugin:window|get_all_windows",
      "src/main.ts:9:97 Window#minimize plugin:window|minimize",
      "src/main.ts:9:104 getAllWindows plugin:window|get_all_windows",
    ]);
  });

  // HuLa guards its desktop-only window calls with isDesktop()/isWindows10() and shares the code with its mobile window.
  it("records the platform checks that guard a call: if/else, early return, &&, ternaries and platform() comparisons", async () => {
    const root = app({
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": [
        'import { getCurrentWindow } from "@tauri-apps/api/window";',
        'import { platform } from "./os";',
        "const win = getCurrentWindow();",
        "const isMobile = () => false;",
        "if (isDesktop()) win.show(); else win.close();",
        "function tray() { if (!isDesktop()) return; win.minimize(); }",
        'isMobile.value && win.setTitle("m");',
        'platform() === "windows" ? win.hide() : win.show();',
        "if (isMac && !isMobile()) win.close();",
        'win.setTitle("everywhere");',
        "tray();",
      ].join("\n"),
      "src/os.ts": "export const platform = () => 'linux';",
    });
    const result = await scan(root);
    expect(
      result.calls.map(
        (call) =>
          `${call.line}:${call.column} ${call.member} ${call.platforms?.join(",") ?? "all"}`,
      ),
    ).toEqual([
      "5:18 Window#show linux,macOS,windows",
      "5:35 Window#close android,iOS",
      "6:45 Window#minimize linux,macOS,windows",
      "7:19 Window#setTitle android,iOS",
      "8:28 Window#hide windows",
      "8:41 Window#show linux,macOS,android,iOS",
      "9:27 Window#close macOS",
      "10:1 Window#setTitle all",
    ]);
  });

  // readest's updater: check() sits in a local function called only under `["macos", …].includes(OS_TYPE)`.
  it("narrows a module-local function to the platforms of its calls when every use of it is a call under a check", async () => {
    const root = app({
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": [
        'import { getCurrentWindow } from "@tauri-apps/api/window";',
        "const win = getCurrentWindow();",
        "const desktopOnly = async () => { await win.show(); [1].forEach(() => win.hide()); };",
        "function twoChecks() { win.minimize(); }",
        "const passedOn = () => win.close();",
        "export function exported() { win.setTitle('x'); }",
        "const inner = () => win.setTitle('inner');",
        "const outer = () => inner();",
        "async function run(portable: boolean, OS_TYPE: string) {",
        "  if (portable && OS_TYPE === 'windows') return;",
        "  if (['macos', 'windows', 'linux'].includes(OS_TYPE)) await desktopOnly();",
        "  if (isMac) twoChecks(); else if (isAndroid()) twoChecks();",
        "  if (isDesktop()) { passedOn(); outer(); }",
        "  if (portable && isWindows()) win.hide(); else win.close();",
        "  const canScan = isMobile;",
        "  if (!canScan) return;",
        "  win.setTitle('scan');",
        "}",
        "document.body.addEventListener('click', passedOn);",
        "run(true, 'linux');",
      ].join("\n"),
    });
    const result = await scan(root);
    expect(
      result.calls.map(
        (call) =>
          `${call.line}:${call.column} ${call.member} ${call.platforms?.join(",") ?? "all"}`,
      ),
    ).toEqual([
      "3:41 Window#show linux,macOS,windows",
      "3:71 Window#hide linux,macOS,windows",
      "4:24 Window#minimize macOS,android",
      "5:24 Window#close all",
      "6:30 Window#setTitle all",
      "7:21 Window#setTitle linux,macOS,windows",
      // `portable && isWindows()` holds on Windows only but fails on every platform: its else and what follows
      // `if (portable && OS_TYPE === "windows") return` are not narrowed to the other platforms.
      "14:32 Window#hide windows",
      "14:49 Window#close all",
      // wealthfolio's QR scanner: `const canScan = isMobile; … if (!canScan) return;`.
      "17:3 Window#setTitle android,iOS",
    ]);
  });

  it("narrows an exported function across modules when every other module calls it under a check (wealthfolio's installLockdown)", async () => {
    const root = app({
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": [
        'import { checkedHere, uncheckedElsewhere, passedOn, readWhole } from "./lib";',
        'import { viaBarrel } from "./barrel";',
        "void getPlatform().then(async (platform) => {",
        "  if (!platform.is_mobile) {",
        '    const { installLockdown } = await import("./lockdown");',
        "    installLockdown();",
        "  }",
        "});",
        "if (isDesktop()) checkedHere();",
        "if (isMac) uncheckedElsewhere();",
        "if (isAndroid()) passedOn();",
        "document.body.addEventListener('click', passedOn);",
        "if (isWindows()) viaBarrel();",
        'import("./whole").then(register);',
        'import("./whole").then((m) => isLinux && m.readWhole());',
        "if (isLinux()) readWhole();",
      ].join("\n"),
      "src/lockdown.ts": [
        'import { getCurrentWindow } from "@tauri-apps/api/window";',
        "export function installLockdown() {",
        "  window.addEventListener('keydown', async () => {",
        "    await getCurrentWindow().hide();",
        "  });",
        "}",
      ].join("\n"),
      "src/lib.ts": [
        'import { getCurrentWindow } from "@tauri-apps/api/window";',
        "export function checkedHere() { getCurrentWindow().show(); }",
        'export { uncheckedElsewhere } from "./unchecked";',
        "export const passedOn = () => getCurrentWindow().minimize();",
        "export { readWhole } from './whole';",
      ].join("\n"),
      "src/unchecked.ts":
        'import { getCurrentWindow } from "@tauri-apps/api/window";\nexport function uncheckedElsewhere() { getCurrentWindow().close(); }',
      // A module that names nothing of Tauri is read for its imports only: its calls are not seen.
      "src/other.ts": 'import { uncheckedElsewhere } from "./unchecked";\nuncheckedElsewhere();',
      "src/barrel.ts": 'import "./other";\nexport { viaBarrel } from "./deep";',
      "src/deep.ts":
        'import { getCurrentWindow } from "@tauri-apps/api/window";\nexport function viaBarrel() { getCurrentWindow().setTitle("b"); }',
      "src/whole.ts":
        'import { getCurrentWindow } from "@tauri-apps/api/window";\nexport function readWhole() { getCurrentWindow().setTitle("w"); }',
    });
    const result = await scan(root);
    expect(
      result.calls.map(
        (call) =>
          `${call.displayFile}:${call.line} ${call.member} ${call.platforms?.join(",") ?? "all"}`,
      ),
    ).toEqual([
      // Re-exported by a barrel read for its imports only, whose importers' calls are not all seen.
      "src/deep.ts:2 Window#setTitle all",
      "src/lib.ts:2 Window#show linux,macOS,windows",
      // Passed as a value: called where the scan cannot see.
      "src/lib.ts:4 Window#minimize all",
      // Imported with `await import()` and called under `if (!platform.is_mobile)`: the handler it registers too.
      "src/lockdown.ts:4 Window#hide linux,macOS,windows",
      // Imported by a module read for its imports only (other.ts): a call there is not seen.
      "src/unchecked.ts:2 Window#close all",
      // Its module is handed whole to a function (`.then(register)`).
      "src/whole.ts:2 Window#setTitle all",
    ]);
  });

  it("narrows calls in a Svelte template by the {#if} blocks around them: else-if and else branches, nested blocks; a condition it cannot repeat leaves the call on every platform", async () => {
    const root = app({
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": 'import "./Bar.svelte";',
      "src/Bar.svelte": [
        '<script lang="ts">',
        '  import { getCurrentWindow } from "@tauri-apps/api/window";',
        '  import { isDesktop, isAndroid, other } from "./os";',
        "</script>",
        "{#if isDesktop()}",
        "  <button on:click={() => getCurrentWindow().minimize()}>Min</button>",
        "{:else if isAndroid}",
        "  <button on:click={() => getCurrentWindow().hide()}>Hide</button>",
        "{:else}",
        "  {#each [1] as item}",
        "    <button on:click={() => getCurrentWindow().close()}>Close</button>",
        "  {/each}",
        "{/if}",
        "{#if other(1)}",
        "  <button on:click={() => getCurrentWindow().show()}>Show</button>",
        "{/if}",
        '<button on:click={() => getCurrentWindow().setTitle("t")}>Title</button>',
      ].join("\n"),
      "src/os.ts":
        "export const isDesktop = () => true;\nexport const isAndroid = false;\nexport const other = (n: number) => n > 0;",
    });
    const result = await scan(root);
    expect(
      result.calls.map(
        (call) =>
          `${call.line}:${call.column} ${call.member} ${call.platforms?.join(",") ?? "all"}`,
      ),
    ).toEqual([
      "6:27 Window#minimize linux,macOS,windows",
      "8:27 Window#hide android",
      // Neither desktop nor android.
      "11:29 Window#close iOS",
      "15:27 Window#show all",
      "17:25 Window#setTitle all",
    ]);
  });

  it("narrows calls in a Vue template by the v-if / v-else-if / v-else elements around them, on the element's own attributes too", async () => {
    const root = app({
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": 'import "./Bar.vue";',
      "src/Bar.vue": [
        "<template>",
        '  <div v-if="isDesktop">',
        '    <button @click="() => getCurrentWindow().minimize()">Min</button>',
        "  </div>",
        "  <!-- <div> a comment is no element -->",
        '  <div v-else-if="isAndroid()" @click="getCurrentWindow().hide()">Hide</div>',
        "  <template v-else>",
        '    <input v-if="isIOS" @focus="getCurrentWindow().close()" />',
        "  </template>",
        '  <p v-if="other(1)">{{ getCurrentWindow().show() }}</p>',
        '  <span>{{ getCurrentWindow().setTitle("t") }}</span>',
        "</template>",
        '<script setup lang="ts">',
        'import { getCurrentWindow } from "@tauri-apps/api/window";',
        'import { isDesktop, isAndroid, isIOS, other } from "./os";',
        "</script>",
      ].join("\n"),
      "src/os.ts":
        "export const isDesktop = true;\nexport const isAndroid = () => false;\nexport const isIOS = false;\nexport const other = (n: number) => n > 0;",
    });
    const result = await scan(root);
    expect(
      result.calls.map(
        (call) =>
          `${call.line}:${call.column} ${call.member} ${call.platforms?.join(",") ?? "all"}`,
      ),
    ).toEqual([
      "3:27 Window#minimize linux,macOS,windows",
      "6:40 Window#hide android",
      "8:33 Window#close iOS",
      "10:25 Window#show all",
      "11:12 Window#setTitle all",
    ]);
  });

  it("finds the project that builds frontendDist when that folder is build output (a monorepo's frontend/dist)", async () => {
    const root = app({
      "frontend/package.json": "{}",
      "frontend/index.html": '<script type="module" src="/src/main.ts"></script>',
      "frontend/src/main.ts": 'import { relaunch } from "@tauri-apps/plugin-process";\nrelaunch();',
      "crates/app/tauri.conf.json": "{}",
    });
    rmSync(path.join(root, "package.json"));
    const result = await scanFrontend({
      appRoot: path.join(root, "crates/app"),
      srcTauri: path.join(root, "crates/app"),
      boundary: root,
      cwd: root,
      maxBytes: 1_000_000,
      apiFor: () => api,
      build: { frontendDist: "../../frontend/dist" },
      windows: [{ label: "main" }],
    });
    expect(calls(result!)).toEqual(["frontend/src/main.ts:2:1 relaunch plugin:process|restart"]);
  });
});

describe("frontend scan: build output the app's folder holds", () => {
  // clash-nyanpasu before 2db8e2b1: frontendDist is ./tmp/dist, written by a workspace package's Vite build.
  it("follows the build's commands to the workspace package whose bundler writes frontendDist", async () => {
    const root = app({
      "package.json": JSON.stringify({
        name: "monorepo",
        scripts: {
          "web:build": "pnpm --filter=@app/web build",
          "other:build": "cd frontend/other && npm run build",
          info: "tsx scripts/info.ts",
        },
      }),
      "pnpm-workspace.yaml": 'packages:\n  - "frontend/*"\n  - scripts\n',
      "frontend/web/package.json": JSON.stringify({
        name: "@app/web",
        scripts: { build: "vite build" },
      }),
      "frontend/web/vite.config.ts":
        'export default { build: { outDir: "../../backend/tauri/tmp/dist" } };',
      "frontend/web/index.html": '<script type="module" src="/src/main.ts"></script>',
      "frontend/web/src/main.ts":
        'import { relaunch } from "@tauri-apps/plugin-process";\nrelaunch();',
      "frontend/other/package.json": JSON.stringify({
        name: "@app/other",
        scripts: { build: "vite build" },
      }),
      "frontend/other/vite.config.ts": 'export default { build: { outDir: "dist" } };',
      "backend/tauri/tauri.conf.json": "{}",
    });
    const scanWith = (beforeBuildCommand: string) =>
      scanFrontend({
        appRoot: path.join(root, "backend/tauri"),
        srcTauri: path.join(root, "backend/tauri"),
        boundary: root,
        cwd: root,
        maxBytes: 1_000_000,
        apiFor: () => api,
        build: { frontendDist: "./tmp/dist", beforeBuildCommand },
        windows: [{ label: "main" }],
      });
    // Two packages built: the one whose Vite config writes ./tmp/dist.
    const result = await scanWith("pnpm run-p web:build other:build info && echo $(pwd)");
    expect(calls(result!)).toEqual([
      "frontend/web/src/main.ts:2:1 relaunch plugin:process|restart",
    ]);
    // A build that runs no package's script says nothing of where the frontend is.
    expect(await scanWith("pnpm info")).toBeUndefined();
  });
});

describe("frontend scan: pages, resolution and bad input", () => {
  it("tells windows apart by page, resolves tsconfig paths and Vite aliases, and notes what it could not read", async () => {
    const root = app({
      "vite.config.ts": [
        'import { resolve } from "node:path";',
        'import { defineConfig } from "vite";',
        "export default defineConfig({",
        '  resolve: { alias: { "~ipc": resolve(__dirname, "src/ipc") } },',
        '  build: { rollupOptions: { input: { main: resolve(__dirname, "index.html"), settings: resolve(__dirname, "settings.html") } } },',
        "});",
      ].join("\n"),
      "tsconfig.json": JSON.stringify({
        compilerOptions: { baseUrl: ".", paths: { "@/*": ["src/*"] } },
      }),
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "settings.html": '<script type="module" src="./src/settings.ts"></script>',
      "src/main.ts":
        'import { save } from "@/notes";\nimport "./broken";\nimport "./bundle.min";\nimport "./outside";\nimport "tauri-plugin-thing-api";\nsave();',
      "src/notes.ts": 'import { call } from "~ipc";\nexport const save = () => call("save_note");',
      "src/ipc.ts":
        'import { invoke } from "@tauri-apps/api/core";\nexport const call = (command: string) => invoke(command);',
      "src/settings.ts":
        'import { getCurrentWindow } from "@tauri-apps/api/window";\ngetCurrentWindow().close();',
      "src/broken.ts": "const = ;",
      "src/bundle.min.js": `var a=${"1+".repeat(3000)}1;\n`,
      "node_modules/tauri-plugin-thing-api/package.json":
        '{"name":"tauri-plugin-thing-api","main":"index.js"}',
      "node_modules/tauri-plugin-thing-api/index.js": "export const x = 1;",
    });
    const elsewhere = mkdtempSync(path.join(tmpdir(), "caplint-elsewhere-"));
    dirs.push(elsewhere);
    writeFileSync(
      path.join(elsewhere, "secret.ts"),
      'import { invoke } from "@tauri-apps/api/core"; invoke("x");',
    );
    symlinkSync(path.join(elsewhere, "secret.ts"), path.join(root, "src/outside.ts"));
    const result = await scan(root, [
      { label: "main" },
      { label: "settings", url: "settings.html" },
    ]);
    expect(calls(result)).toEqual([
      "src/notes.ts:2:27 invoke save_note",
      "src/settings.ts:2:1 Window#close plugin:window|close",
    ]);
    expect(result.pagesCertain).toBe(true);
    expect(result.windowPages.get("settings")?.files.has(path.join(root, "src/settings.ts"))).toBe(
      true,
    );
    expect(result.windowPages.get("settings")?.files.has(path.join(root, "src/main.ts"))).toBe(
      false,
    );
    expect(result.windowPages.get("main")?.files.has(path.join(root, "src/main.ts"))).toBe(true);
    expect(result.thirdPartyPlugins).toEqual(["tauri-plugin-thing-api"]);
    expect(result.notes).toEqual([
      "src/broken.ts:1:1: does not parse (Unexpected token); its calls were not analysed",
      "src/bundle.min.js: looks minified or built; skipped",
      'src/main.ts: import "./outside" leads out of the repository through a link; not followed',
    ]);
  });
});

describe("frontend scan: the module cache of an editor's checks", () => {
  it("parses again only the files whose text changed, gives the same calls, and forgets files no longer reachable", async () => {
    const root = app({
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": 'import { close } from "./a";\nimport "./b";\nclose();\n',
      "src/a.ts":
        'import { getCurrentWindow } from "@tauri-apps/api/window";\nexport const close = () => getCurrentWindow().close();\n',
      "src/b.ts": 'import { invoke } from "@tauri-apps/api/core";\ninvoke("save_note");\n',
    });
    const cache: ModuleCache = new Map();
    const first = await scan(root, undefined, {}, cache);
    expect(first.parsed).toBe(4);
    const again = await scan(root, undefined, {}, cache);
    expect(again.parsed).toBe(0);
    expect(again.calls.map((call) => call.commands)).toEqual(
      first.calls.map((call) => call.commands),
    );
    writeFileSync(path.join(root, "src/main.ts"), 'import { close } from "./a";\nclose();\n');
    const edited = await scan(root, undefined, {}, cache);
    expect(edited.parsed).toBe(1);
    expect(edited.calls.map((call) => call.commands)).toEqual([["plugin:window|close"]]);
    expect([...cache.keys()].map((file) => path.relative(root, file)).sort()).toEqual([
      "index.html",
      "src/a.ts",
      "src/main.ts",
    ]);
  });
});

describe("frontend scan: the imports' resolutions kept between an editor's checks", () => {
  it("resolves again only new requests while no folder changed, and everything once a file is created or deleted, a folder added, or a package.json or tsconfig edited", async () => {
    const root = app({
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": 'import { close } from "./lib/a";\nimport "./lib/extra";\nclose();\n',
      "src/lib/a.ts":
        'import { getCurrentWindow } from "@tauri-apps/api/window";\nexport const close = () => getCurrentWindow().close();\n',
      "src/lib/package.json": "{}",
    });
    const cache: ModuleCache = new Map();
    const first = await scan(root, undefined, {}, cache);
    // The first scan (a command-line check's only one) keeps none: the folders were not stated.
    expect(first.resolved).toBe(4);
    expect((await scan(root, undefined, {}, cache)).resolved).toBe(4);
    const kept = await scan(root, undefined, {}, cache);
    expect(kept.resolved).toBe(0);
    expect(kept.calls.map((call) => call.commands)).toEqual([["plugin:window|close"]]);
    // An edit that adds one request: that one alone.
    const main = path.join(root, "src/main.ts");
    writeFileSync(
      main,
      'import { close } from "./lib/a";\nimport "./lib/extra";\nimport "./b";\nclose();\n',
    );
    expect((await scan(root, undefined, {}, cache)).resolved).toBe(1);
    expect((await scan(root, undefined, {}, cache)).resolved).toBe(0);
    // A module created where a request led nowhere: the request now reaches it.
    writeFileSync(
      path.join(root, "src/lib/extra.ts"),
      'import { invoke } from "@tauri-apps/api/core";\ninvoke("save_note");\n',
    );
    const created = await scan(root, undefined, {}, cache);
    expect(created.resolved).toBeGreaterThan(0);
    expect(created.calls.map((call) => call.commands)).toEqual([
      ["plugin:window|close"],
      ["save_note"],
    ]);
    expect((await scan(root, undefined, {}, cache)).resolved).toBe(0);
    rmSync(path.join(root, "src/lib/extra.ts"));
    const deleted = await scan(root, undefined, {}, cache);
    expect(deleted.calls.map((call) => call.commands)).toEqual([["plugin:window|close"]]);
    expect((await scan(root, undefined, {}, cache)).resolved).toBe(0);
    // A folder added below the root, and a package.json edited in place (its folder unchanged).
    mkdirSync(path.join(root, "src/lib/deeper"));
    expect((await scan(root, undefined, {}, cache)).resolved).toBeGreaterThan(0);
    expect((await scan(root, undefined, {}, cache)).resolved).toBe(0);
    writeFileSync(path.join(root, "src/lib/package.json"), '{ "name": "lib" }');
    expect((await scan(root, undefined, {}, cache)).resolved).toBeGreaterThan(0);
    expect((await scan(root, undefined, {}, cache)).resolved).toBe(0);
  });
});

describe("frontend scan: what an editor's checks keep does not grow with the edits", () => {
  it("keeps the resolutions of the requests the last scan made, after 200 edits that each typed another import", async () => {
    const root = app({
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": 'import { close } from "./a";\nclose();\n',
      "src/a.ts":
        'import { getCurrentWindow } from "@tauri-apps/api/window";\nexport const close = () => getCurrentWindow().close();\n',
    });
    const cache: ModuleCache = new Map();
    const main = path.join(root, "src/main.ts");
    await scan(root, undefined, {}, cache);
    const settled = (await scan(root, undefined, {}, cache)).resolutionsKept;
    expect(settled).toBe(3);
    let most = 0;
    for (let edit = 0; edit < 200; edit++) {
      // An import typed one character at a time: "./m", "./mo", ... each a request of its own.
      writeFileSync(
        main,
        `import { close } from "./a";\nimport "./${"m".repeat(1 + (edit % 50))}${edit}";\nclose();\n`,
      );
      const result = await scan(root, undefined, {}, cache);
      most = Math.max(most, result.resolutionsKept);
    }
    expect(most).toBe(settled + 1);
    expect(cache.size).toBe(3);
  });
});

describe("frontend scan: modules that name nothing of Tauri", () => {
  it("reads them whole only when a caller needs their values, and finds the same calls through them", async () => {
    const root = app({
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": [
        'import { invoke } from "@tauri-apps/api/core";',
        'import { SAVE } from "./names";',
        'import { apply } from "./util";',
        'import { format } from "./format";',
        'import { LOAD } from "./barrel";',
        'import { go } from "./wrap";',
        "invoke(SAVE);",
        'apply((command: string) => invoke(command), "apply_cmd");',
        'format("x", 1);',
        "invoke(LOAD);",
        "go();",
      ].join("\n"),
      "src/names.ts": 'export const SAVE = "save_note";\n',
      "src/util.ts":
        "export function apply(fn: (command: string) => unknown, value: string) {\n  return fn(value);\n}\n",
      "src/format.ts":
        "export function format(text: string, times: number) {\n  return text.repeat(times);\n}\n",
      "src/barrel.ts": 'export * from "./more-names";\n',
      "src/more-names.ts": 'export const LOAD = "load_notes";\n',
      "src/wrap.ts": 'import { call } from "./ipc";\nexport const go = () => call("go_cmd");\n',
      "src/ipc.ts":
        'import { invoke } from "@tauri-apps/api/core";\nexport const call = (command: string) => invoke(command);\n',
    });
    const cache: ModuleCache = new Map();
    const result = await scan(root, undefined, {}, cache);
    expect(calls(result)).toEqual([
      "src/main.ts:7:1 invoke save_note",
      "src/main.ts:8:1 invoke apply_cmd",
      "src/main.ts:10:1 invoke load_notes",
      "src/wrap.ts:2:25 invoke go_cmd",
    ]);
    expect(result.unresolved).toEqual([]);
    // Only the imports of a module nothing needs were read (its cache entry holds them alone).
    const readWhole = (file: string) =>
      cache.get(path.join(root, file))!.typeRequests === undefined;
    expect(
      [
        "src/names.ts",
        "src/util.ts",
        "src/barrel.ts",
        "src/more-names.ts",
        "src/wrap.ts",
        "src/ipc.ts",
      ].filter((file) => !readWhole(file)),
    ).toEqual([]);
    expect(readWhole("src/format.ts")).toBe(false);
    expect(result.files).toHaveLength(9);
  });

  it("leaves import-only the importers of exports that cannot make a use, and reads whole those of wrappers, Tauri values and callbacks", async () => {
    const root = app({
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": [
        'import { a } from "./harmless-user";',
        'import { b } from "./wrapper-user";',
        'import { c } from "./window-user";',
        'import { d } from "./callback-user";',
        'import { e } from "./typed-user";',
        "a(); b(); c(); d(); e();",
      ].join("\n"),
      "src/harmless-service.ts": [
        'import { invoke } from "@tauri-apps/api/core";',
        "export function run(label: string, count: number) {",
        '  invoke("run_cmd");',
        "  console.debug(label.slice(0, 2), count);",
        "}",
      ].join("\n"),
      "src/harmless-user.ts":
        'import { run } from "./harmless-service";\nexport function a() { run("a", 1); }\n',
      "src/ipc.ts":
        'import { invoke } from "@tauri-apps/api/core";\nexport const call = (command: string) => invoke(command);\n',
      "src/wrapper-user.ts":
        'import { call } from "./ipc";\nexport function b() { call("save_b"); }\n',
      "src/windows.ts":
        'import { getCurrentWindow } from "@tauri-apps/api/window";\nexport const win = () => getCurrentWindow();\n',
      "src/window-user.ts":
        'import { win } from "./windows";\nexport function c() { win().close(); }\n',
      "src/frames.ts": [
        'import { getCurrentWindow } from "@tauri-apps/api/window";',
        "export function withWindow(fn: (w: unknown) => void) { fn(getCurrentWindow()); }",
      ].join("\n"),
      "src/callback-user.ts":
        'import { withWindow } from "./frames";\nexport function d() { withWindow((w: any) => w.minimize()); }\n',
      "src/reexport.ts": 'export { Window } from "@tauri-apps/api/window";\n',
      "src/typed-user.ts":
        'import { Window } from "./reexport";\nexport function e(w: Window) { w.hide(); }\n',
    });
    const cache: ModuleCache = new Map();
    const result = await scan(root, undefined, {}, cache);
    expect(calls(result)).toEqual([
      "src/callback-user.ts:2:23 Window#minimize plugin:window|minimize",
      "src/harmless-service.ts:3:3 invoke run_cmd",
      "src/typed-user.ts:2:32 Window#hide plugin:window|hide",
      "src/window-user.ts:2:23 Window#close plugin:window|close",
      "src/wrapper-user.ts:2:23 invoke save_b",
    ]);
    const readWhole = (file: string) =>
      cache.get(path.join(root, file))!.typeRequests === undefined;
    expect(
      ["src/main.ts", "src/harmless-user.ts", "src/wrapper-user.ts", "src/window-user.ts"]
        .concat(["src/callback-user.ts", "src/typed-user.ts"])
        .filter(readWhole),
    ).toEqual([
      "src/wrapper-user.ts",
      "src/window-user.ts",
      "src/callback-user.ts",
      "src/typed-user.ts",
    ]);
  });

  it("follows what their syntax tree loads: side-effect imports and every re-export form, not type-only imports nor a module block's", async () => {
    const tauriCall = (command: string) =>
      `import { invoke } from "@tauri-apps/api/core";\ninvoke("${command}");\n`;
    const root = app({
      "index.html": '<script type="module" src="/src/main.ts"></script>',
      "src/main.ts": 'import { a } from "./plain";\nimport { c } from "./ambient";\na(c);\n',
      "src/plain.ts": [
        'import type { T } from "./types-only";',
        'export {} from "./side";',
        'export type { U } from "./type-reexport";',
        'export * from "./star";',
        'export { b as a } from "./named";',
        'import "./effect";',
        "export const text = 'export * from \"./in-a-string\"';",
      ].join("\n"),
      "src/side.ts": tauriCall("side_cmd"),
      "src/star.ts": "export const s = 1;\n",
      "src/named.ts": "export function b(value: number) {\n  return value;\n}\n",
      "src/effect.ts": 'document.title = "x";\n',
      "src/types-only.ts": tauriCall("type_import_cmd"),
      "src/type-reexport.ts": tauriCall("type_reexport_cmd"),
      "src/in-a-string.ts": tauriCall("string_cmd"),
      "src/ambient.ts":
        'declare module "virtual:x" {\n  export * from "./hidden";\n}\nexport const c = 1;\n',
      "src/hidden.ts": tauriCall("hidden_cmd"),
    });
    const result = await scan(root, undefined, {}, new Map());
    expect(calls(result)).toEqual(["src/side.ts:2:1 invoke side_cmd"]);
    expect(result.files.map((file) => path.relative(root, file)).sort()).toEqual([
      "index.html",
      "src/ambient.ts",
      "src/effect.ts",
      "src/main.ts",
      "src/named.ts",
      "src/plain.ts",
      "src/side.ts",
      "src/star.ts",
    ]);
  });
});
