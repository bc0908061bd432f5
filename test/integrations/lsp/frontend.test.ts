/**
 * Least privilege in the editor, through the built bin over JSON-RPC: a frontend file's refused calls
 * are published at the call (from the editor's text, not the disk), the quick fix grants the narrowest
 * permission in the right capability file (JSON or TOML, formatting kept), the hover on a call says
 * which windows may make it, and an edit of one frontend file is checked again quickly. The app is
 * generated here: two pages, a JSON capability for "main" and a TOML one for "settings".
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodeAction, Diagnostic, Hover } from "vscode-languageserver-protocol/node";
import { ROOT } from "../../helpers/run.js";
import { copyApp, startServer, uriOf, type TestClient } from "./client.js";
import { applyEdits, frontendApp } from "./frontend-app.js";

/** Where `getCurrentWindow().startDragging()` stands in main.ts (line 2, from 0). */
const MAIN_LINE =
  'document.querySelector("#bar")!.addEventListener("mousedown", () => getCurrentWindow().startDragging());';
const DRAG = {
  start: { line: 2, character: MAIN_LINE.indexOf("getCurrentWindow()") },
  end: {
    line: 2,
    character:
      MAIN_LINE.indexOf("getCurrentWindow()") + "getCurrentWindow().startDragging()".length,
  },
};

describe("caplint lsp: the frontend's calls", () => {
  let app: ReturnType<typeof frontendApp>;
  let client: TestClient;
  const file = (name: string) => path.join(app.dir, name);

  beforeAll(async () => {
    app = frontendApp();
    client = await startServer(app.dir);
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
    app.remove();
  });

  it("publishes frontend-command-not-granted at the call, from the editor's text", async () => {
    const uri = uriOf(file("src/main.ts"));
    await client.open(uri, readFileSync(file("src/main.ts"), "utf8"), "typescript");
    const found = await client.diagnostics(uri, (list) =>
      list.some((d) => d.code === "frontend-command-not-granted"),
    );
    const refused = found.filter((d) => d.code === "frontend-command-not-granted");
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      range: DRAG,
      severity: 2,
      source: "caplint",
    });
    expect(refused[0]!.message).toMatch(
      /^Window\.startDragging\(\) invokes "plugin:window\|start_dragging", which window "main" cannot call: no capability grants it\nhelp: add "core:window:allow-start-dragging" to "permissions" of capability "default" in src-tauri\/capabilities\/default\.json:4$/,
    );
    // The buffer, not the disk: a call typed and not saved is judged; the one removed is gone.
    await client.change(
      uri,
      'import { getCurrentWindow } from "@tauri-apps/api/window";\n\nawait getCurrentWindow().hide();\n',
    );
    const edited = await client.diagnostics(uri, (list) =>
      list.some((d) => String(d.message).includes("plugin:window|hide")),
    );
    expect(edited.map((d) => d.range.start)).toEqual([{ line: 2, character: 6 }]);
    await client.change(uri, readFileSync(file("src/main.ts"), "utf8"));
    await client.diagnostics(uri, (list) =>
      list.some((d) => String(d.message).includes("start_dragging")),
    );
  });

  it("offers the narrowest permission in the JSON capability of the window, as a workspace edit that keeps the file's layout", async () => {
    const uri = uriOf(file("src/main.ts"));
    const actions = await client.connection.sendRequest<CodeAction[]>("textDocument/codeAction", {
      textDocument: { uri },
      range: { start: { line: 2, character: 100 }, end: { line: 2, character: 100 } },
      context: { diagnostics: [] },
    });
    const grant = actions.find((action) => action.title.startsWith("Grant "));
    expect(grant?.title).toBe(
      'Grant core:window:allow-start-dragging to capability "default" (src-tauri/capabilities/default.json) for "main"',
    );
    const capability = file("src-tauri/capabilities/default.json");
    const edits = grant!.edit!.changes![uriOf(capability)]!;
    expect(applyEdits(readFileSync(capability, "utf8"), edits)).toBe(
      '{\n  "identifier": "default",\n  "windows": ["main"],\n  "permissions": [\n    "core:default",\n    "core:window:allow-set-title",\n    "core:window:allow-start-dragging"\n  ]\n}\n',
    );
  });

  it("writes TOML in a TOML capability, with the scope the call's literal argument names", async () => {
    const uri = uriOf(file("src/settings.ts"));
    await client.open(uri, readFileSync(file("src/settings.ts"), "utf8"), "typescript");
    const found = await client.diagnostics(uri, (list) =>
      list.some((d) => d.code === "frontend-command-not-granted"),
    );
    const at = found.find((d) => d.code === "frontend-command-not-granted")!.range;
    const actions = await client.connection.sendRequest<CodeAction[]>("textDocument/codeAction", {
      textDocument: { uri },
      range: at,
      context: { diagnostics: [] },
    });
    const grant = actions.find((action) => action.title.startsWith("Grant "))!;
    expect(grant.title).toBe(
      'Grant fs:allow-read-text-file to capability "settings" (src-tauri/capabilities/settings.toml) for "settings"',
    );
    const capability = file("src-tauri/capabilities/settings.toml");
    expect(
      applyEdits(readFileSync(capability, "utf8"), grant.edit!.changes![uriOf(capability)]!),
    ).toBe(
      'identifier = "settings"\nwindows = ["settings"]\npermissions = [\n  "core:default",\n  "core:window:default",\n  { identifier = "fs:allow-read-text-file", allow = [{ path = "theme.css" }] },\n]\n',
    );
  });

  it("hovers a call: which windows may make it and which are refused, on which platforms", async () => {
    const uri = uriOf(file("src/main.ts"));
    const hover = await client.connection.sendRequest<Hover>("textDocument/hover", {
      textDocument: { uri },
      position: { line: 2, character: 100 },
    });
    const value = (hover.contents as { value: string }).value;
    expect(value).toBe(
      [
        "**`Window.startDragging()`**",
        "Invokes `plugin:window|start_dragging` (narrowest permission: `core:window:allow-start-dragging`)",
        "**May call:** no window",
        "**Refused:** window `main` (every platform): no capability grants it",
      ].join("\n\n"),
    );
    expect(hover.range).toEqual(DRAG);
    // Granted once the capability (open, unsaved) has the permission: the buffer counts for the judgement too.
    const capability = file("src-tauri/capabilities/default.json");
    await client.open(
      uriOf(capability),
      readFileSync(capability, "utf8").replace(
        '"core:default",',
        '"core:default", "core:window:allow-start-dragging",',
      ),
    );
    await client.diagnostics(
      uri,
      (list) => !list.some((d) => d.code === "frontend-command-not-granted"),
    );
    const granted = await client.connection.sendRequest<Hover>("textDocument/hover", {
      textDocument: { uri },
      position: { line: 2, character: 100 },
    });
    expect((granted.contents as { value: string }).value).toContain(
      "**May call:** window `main` (every platform)",
    );
    await client.close(uriOf(capability));
  });
});

describe("caplint lsp: a capability inlined in tauri.conf.json", () => {
  it("the quick fix adds the permission to the inline capability's permissions, in tauri.conf.json, its layout kept; the hover names the window", async () => {
    const app = frontendApp();
    const config = path.join(app.dir, "src-tauri/tauri.conf.json");
    const listed = readFileSync(config, "utf8").replace(
      '"app": {',
      [
        '"app": {',
        '    "security": {',
        '      "capabilities": [',
        '        "settings",',
        "        {",
        '          "identifier": "main-inline",',
        '          "windows": ["main"],',
        '          "permissions": ["core:default"]',
        "        }",
        "      ]",
        "    },",
      ].join("\n"),
    );
    writeFileSync(config, listed);
    const client = await startServer(app.dir);
    try {
      const uri = uriOf(path.join(app.dir, "src/main.ts"));
      await client.open(uri, readFileSync(path.join(app.dir, "src/main.ts"), "utf8"), "typescript");
      const found = await client.diagnostics(uri, (list) =>
        list.some((d) => d.code === "frontend-command-not-granted"),
      );
      expect(found.find((d) => d.code === "frontend-command-not-granted")!.message).toContain(
        'help: add "core:window:allow-start-dragging" to "permissions" of capability "main-inline" in src-tauri/tauri.conf.json:',
      );
      const actions = await client.connection.sendRequest<CodeAction[]>("textDocument/codeAction", {
        textDocument: { uri },
        range: { start: { line: 2, character: 100 }, end: { line: 2, character: 100 } },
        context: { diagnostics: [] },
      });
      const grant = actions.find((action) => action.title.startsWith("Grant "));
      expect(grant?.title).toBe(
        'Grant core:window:allow-start-dragging to capability "main-inline" (src-tauri/tauri.conf.json) for "main"',
      );
      expect(Object.keys(grant!.edit!.changes!)).toEqual([uriOf(config)]);
      expect(applyEdits(listed, grant!.edit!.changes![uriOf(config)]!)).toBe(
        listed.replace(
          '"permissions": ["core:default"]',
          '"permissions": ["core:default", "core:window:allow-start-dragging"]',
        ),
      );
      const hover = await client.connection.sendRequest<Hover>("textDocument/hover", {
        textDocument: { uri },
        position: { line: 2, character: 100 },
      });
      expect((hover.contents as { value: string }).value).toContain(
        "**Refused:** window `main` (every platform): no capability grants it",
      );
      expect(await client.stop()).toBe(0);
    } finally {
      app.remove();
    }
  }, 60_000);
});

describe("caplint lsp: a capability inlined in a platform config", () => {
  it("the quick fix edits tauri.linux.conf.json when the capability it inlines is the one that covers the window", async () => {
    const app = frontendApp();
    const platformConfig = path.join(app.dir, "src-tauri/tauri.linux.conf.json");
    const text =
      '{\n  "app": {\n    "security": {\n      "capabilities": [\n        "settings",\n        { "identifier": "main-linux", "windows": ["main"], "permissions": ["core:default"] }\n      ]\n    }\n  }\n}\n';
    writeFileSync(platformConfig, text);
    // The capability file no longer covers "main": on linux only the inline capability does.
    const capabilityFile = path.join(app.dir, "src-tauri/capabilities/default.json");
    writeFileSync(
      capabilityFile,
      readFileSync(capabilityFile, "utf8").replace('["main"]', '["other"]'),
    );
    const client = await startServer(app.dir);
    try {
      const uri = uriOf(path.join(app.dir, "src/main.ts"));
      await client.open(uri, readFileSync(path.join(app.dir, "src/main.ts"), "utf8"), "typescript");
      await client.diagnostics(uri, (list) =>
        list.some((d) => d.code === "frontend-command-not-granted"),
      );
      const actions = await client.connection.sendRequest<CodeAction[]>("textDocument/codeAction", {
        textDocument: { uri },
        range: { start: { line: 2, character: 100 }, end: { line: 2, character: 100 } },
        context: { diagnostics: [] },
      });
      const grant = actions.find((action) => action.title.startsWith("Grant "));
      expect(grant?.title).toBe(
        'Grant core:window:allow-start-dragging to capability "main-linux" (src-tauri/tauri.linux.conf.json) for "main"',
      );
      expect(applyEdits(text, grant!.edit!.changes![uriOf(platformConfig)]!)).toBe(
        text.replace(
          '"permissions": ["core:default"]',
          '"permissions": ["core:default", "core:window:allow-start-dragging"]',
        ),
      );
      expect(await client.stop()).toBe(0);
    } finally {
      app.remove();
    }
  }, 60_000);
});

/** Edit → diagnostics, six times (a refused call typed, then undone), in ms, sorted. */
async function editTimes(
  client: TestClient,
  file: string,
  from: string,
  to: string,
): Promise<number[]> {
  const uri = uriOf(file);
  const original = readFileSync(file, "utf8");
  const refusedHere = (list: Diagnostic[]) =>
    list.some(
      (d) => d.code === "frontend-command-not-granted" && String(d.message).includes(`.${to}()`),
    );
  await client.open(uri, original, "typescript");
  await client.diagnostics(uri, (list) => !refusedHere(list), 30_000);
  const times: number[] = [];
  for (let round = 0; round < 6; round++) {
    const refused = round % 2 === 0;
    const started = performance.now();
    await client.change(uri, refused ? original.replace(from, to) : original);
    await client.diagnostics(uri, (list) => refusedHere(list) === refused, 30_000);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

describe("caplint lsp: an edit of one frontend module", () => {
  it("is checked again quickly, in a 50-module app and in the demo app", async () => {
    const generated = frontendApp(50);
    const demo = mkdtempSync(path.join(tmpdir(), "caplint-lsp-demo-"));
    cpSync(path.join(ROOT, "examples/demo-app"), demo, { recursive: true });
    try {
      const figures: string[] = [];
      for (const [name, dir, file, from, to] of [
        ["50-module app", generated.dir, "src/lib/m7.ts", "setTitle", "hide"],
        ["demo app", demo, "src/settings.ts", "setSize", "hide"],
      ] as const) {
        const client = await startServer(dir);
        const times = await editTimes(client, path.join(dir, file), from, to);
        // Work counted, not only timed: after the first check, each edit parses the edited module alone.
        const checks = client.messages.filter((m) =>
          /^caplint: \.: checked in \d+ ms; rules: \d+ run[^;]*, \d+ kept; frontend: /.test(m),
        );
        expect(checks.length).toBeGreaterThanOrEqual(7);
        const modules = name === "demo app" ? 4 : 54;
        expect(checks[0]).toMatch(
          new RegExp(`frontend: ${modules} of ${modules} modules parsed, \\d+ imports resolved$`),
        );
        const resolvedFirst = Number(/(\d+) imports? resolved$/.exec(checks[0]!)![1]);
        expect(resolvedFirst).toBeGreaterThanOrEqual(modules > 4 ? 3 : 2);
        for (const [index, check] of checks.slice(-6).entries()) {
          expect(check).toMatch(new RegExp(`frontend: 1 of ${modules} modules parsed, `));
          // Once the scan after the whole load has stated the folders, the imports are kept (no folder
          // changed): the edited module's requests are those it made before, so none is resolved again.
          if (index >= 2) expect(check).toMatch(/, 0 imports resolved$/);
          // Only rules that read the frontend run again (and unused-suppression, which runs last): the others keep their findings.
          expect(check).toMatch(/rules: [1-6] run, (2\d|3\d) kept/);
        }
        const median = times[times.length >> 1]!;
        const checkTimes = checks
          .slice(-6)
          .map((m) => Number(/checked in (\d+) ms/.exec(m)![1]))
          .sort((a, b) => a - b);
        figures.push(
          `${name}: ${times.map((t) => t.toFixed(0)).join(", ")} ms (median ${median.toFixed(0)} ms; the check itself: median ${checkTimes[3]} ms, first check ${/checked in (\d+) ms/.exec(checks[0]!)![1]} ms)`,
        );
        expect(median).toBeLessThan(10_000);
        expect(await client.stop()).toBe(0);
      }
      console.log(`[lsp-frontend] edit -> diagnostics, ${figures.join("; ")}`);
    } finally {
      generated.remove();
      rmSync(demo, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("caplint lsp: a frontend call into a plugin the build does not have", () => {
  it("publishes frontend-calls-unregistered-plugin at the call, and clears it when Cargo.toml (open, unsaved) adds the plugin", async () => {
    const app = copyApp(
      "capabilities/frontend-calls-unregistered-plugin/invalid/dialog-not-in-build",
    );
    const client = await startServer(app.dir);
    try {
      const uri = uriOf(path.join(app.dir, "src/main.ts"));
      await client.open(uri, readFileSync(path.join(app.dir, "src/main.ts"), "utf8"), "typescript");
      const found = await client.diagnostics(uri, (list) =>
        list.some((d) => d.code === "frontend-calls-unregistered-plugin"),
      );
      const warning = found.find((d) => d.code === "frontend-calls-unregistered-plugin")!;
      expect(warning).toMatchObject({ range: { start: { line: 3, character: 21 } }, severity: 2 });
      expect(warning.message).toMatch(
        /^open\(\) invokes "plugin:dialog\|open", but plugin "dialog" is not in the build: the call fails with "plugin dialog not found"\nhelp: add tauri-plugin-dialog/,
      );
      const cargo = path.join(app.dir, "src-tauri/Cargo.toml");
      await client.open(
        uriOf(cargo),
        `${readFileSync(cargo, "utf8")}tauri-plugin-dialog = "2.2.0"\n`,
        "toml",
      );
      await client.diagnostics(
        uri,
        (list) => !list.some((d) => d.code === "frontend-calls-unregistered-plugin"),
      );
      expect(await client.stop()).toBe(0);
    } finally {
      app.remove();
    }
  }, 60_000);
});

describe("caplint lsp: Vue and Svelte components", () => {
  it("places a refused call inside a component's <script> and template at its position in the file", async () => {
    const app = frontendApp();
    const client = await startServer(app.dir);
    try {
      const vue = [
        "<template>",
        '  <button @click="close">Close</button>',
        "</template>",
        '<script setup lang="ts">',
        'import { getCurrentWindow } from "@tauri-apps/api/window";',
        "const close = () => getCurrentWindow().close();",
        "</script>",
        "",
      ].join("\n");
      const svelte = [
        '<script lang="ts">',
        '  import { getCurrentWindow } from "@tauri-apps/api/window";',
        "</script>",
        "",
        "<button on:click={() => getCurrentWindow().minimize()}>Minimize</button>",
        "",
      ].join("\n");
      writeFileSync(path.join(app.dir, "src/Panel.vue"), vue);
      writeFileSync(path.join(app.dir, "src/Save.svelte"), svelte);
      const main = path.join(app.dir, "src/main.ts");
      // The import is typed in the editor, not saved: the buffer's graph reaches the components.
      await client.open(
        uriOf(main),
        `import "./Panel.vue";\nimport "./Save.svelte";\n${readFileSync(main, "utf8")}`,
        "typescript",
      );
      const vueUri = uriOf(path.join(app.dir, "src/Panel.vue"));
      await client.open(vueUri, vue, "vue");
      const inVue = await client.diagnostics(vueUri, (list) =>
        list.some((d) => d.code === "frontend-command-not-granted"),
      );
      expect(
        inVue.filter((d) => d.code === "frontend-command-not-granted").map((d) => d.range),
      ).toEqual([{ start: { line: 5, character: 20 }, end: { line: 5, character: 46 } }]);
      const svelteUri = uriOf(path.join(app.dir, "src/Save.svelte"));
      await client.open(svelteUri, svelte, "svelte");
      const inSvelte = await client.diagnostics(svelteUri, (list) =>
        list.some((d) => d.code === "frontend-command-not-granted"),
      );
      const refused = inSvelte.find((d) => d.code === "frontend-command-not-granted")!;
      const at = "<button on:click={() => ".length;
      expect(refused.range).toEqual({
        start: { line: 4, character: at },
        end: { line: 4, character: at + "getCurrentWindow().minimize()".length },
      });
      expect(refused.message).toMatch(
        /^Window\.minimize\(\) invokes "plugin:window\|minimize", which window "main" cannot call/,
      );
      expect(await client.stop()).toBe(0);
    } finally {
      app.remove();
    }
  }, 60_000);
});
