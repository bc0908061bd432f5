import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { Diagnostic as LspDiagnostic } from "vscode-languageserver-protocol/node";
import { CheckSession } from "../../../src/capabilities/check-run.js";
import { analyzeApp, type AppTarget } from "../../../src/lsp/analysis.js";
import { toLspDiagnostic } from "../../../src/lsp/convert.js";
import { readSettings } from "../../../src/lsp/settings.js";
import { boundedFindings } from "../../../src/lsp/workspace.js";
import { copyApp, startServer, uriOf, type TestClient } from "./client.js";
import { frontendApp } from "./frontend-app.js";

/**
 * The server re-checks an app incrementally after an edit (it keeps the loaded app, re-reads only the
 * edited documents, and publishes only the files whose findings changed). A differential test: random
 * edit sequences go through the real server, and after every few edits what the client was last told
 * for every file must equal a fresh full check of the same texts (a new check session, which loads
 * everything). The edits break and mend JSON, rename permissions and identifiers (duplicates across
 * files), open and close files (the disk's text counts again), create an unsaved capability file,
 * and change the files that shape the app (Cargo.toml, a frontend module), which reload it whole.
 * Edits that change only the formatting (a blank line, an indent, the whole JSON reformatted) keep
 * every file's parsed value: rules that read only values keep their findings, which must still be
 * placed in the new text. Each way the server keeps findings (rules of one document over the edited
 * files only, rules of the whole app whose inputs did not change, positions and texts of findings in
 * unchanged documents) fails this test when broken (each was checked by planting a bug in the built
 * bundle: see docs/performance.md, helper "lspscope").
 */

/** Mulberry32: the same edits on every run of a seed. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CAPABILITY_WORDS = [
  "core:default",
  "core:window:allow-close",
  "core:window:deny-close",
  "core:window:allow-set-title",
  "core:window:default",
  "autostart:default",
  "autostart:allow-enable",
  "autostart:defualt",
  "shell:allow-open",
  "shell:allow-opne",
  "fs:default",
  "fs:allow-read-text-file",
  "fs:deny-read-text-file",
  "global-shortcut:allow-register",
  "dataans:allow-profile",
  "dataans:allow-profiel",
  "nosuch:default",
  "main",
  "settings",
  "*",
  "desktop-capability",
  "default",
  "settings",
  "migrated",
  "linux",
  "android",
  "https://*.example.com",
  "identifier",
  "windows",
];

interface Scenario {
  /** The workspace folder the client opens. */
  workspace: string;
  /** The app's root folder (holding src-tauri/) and its src-tauri folder. */
  target: Required<Pick<AppTarget, "root" | "srcTauri">>;
  /** Files the edits open and change, relative to src-tauri (frontend files relative to the root, starting with "../"). */
  capabilityFiles: string[];
  /** A file whose change reloads the app whole, and the edit of its text. */
  shapeFiles: Array<{ file: string; edit: (text: string) => string }>;
  /**
   * Files created and deleted on disk behind the server's back (no watcher tells it), each followed
   * by an edit of an open document: the check that takes the edit must see them (an import that
   * resolves to nothing before and to the new module after).
   */
  diskFiles?: Array<{ file: string; text: string }>;
  remove: () => void;
}

class Editor {
  readonly texts = new Map<string, string>();
  private readonly random: () => number;

  constructor(
    readonly client: TestClient,
    readonly scenario: Scenario,
    seed: number,
  ) {
    this.random = prng(seed);
  }

  file(relative: string): string {
    return path.join(this.scenario.target.srcTauri, relative);
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)]!;
  }

  async open(file: string, text: string): Promise<void> {
    const uri = uriOf(file);
    if (this.texts.has(uri)) return;
    this.texts.set(uri, text);
    await this.client.open(uri, text);
  }

  async close(uri: string): Promise<void> {
    this.texts.delete(uri);
    await this.client.close(uri);
  }

  /** Replaces `length` characters at `offset` of an open document, as one incremental change. */
  async splice(uri: string, offset: number, length: number, insert: string): Promise<void> {
    const text = this.texts.get(uri)!;
    const position = (at: number) => {
      const before = text.slice(0, at);
      const line = before.split("\n").length - 1;
      return { line, character: at - (before.lastIndexOf("\n") + 1) };
    };
    this.texts.set(uri, text.slice(0, offset) + insert + text.slice(offset + length));
    await this.client.edit(
      uri,
      { start: position(offset), end: position(offset + length) },
      insert,
    );
  }

  /** One random edit of the app's open documents, or an open, close or whole-text change. */
  async step(): Promise<string> {
    const open = [...this.texts.keys()];
    const roll = this.random();
    if (open.length === 0 || roll < 0.08) {
      const relative = this.pick(this.scenario.capabilityFiles);
      await this.open(this.file(relative), readFileSync(this.file(relative), "utf8"));
      return `open ${relative}`;
    }
    if (roll < 0.12) {
      // A capability file never saved: the server names it to the check itself.
      await this.open(
        this.file("capabilities/unsaved.json"),
        JSON.stringify({
          identifier: this.pick(["unsaved", "default", "migrated"]),
          windows: [this.pick(CAPABILITY_WORDS)],
          permissions: [this.pick(CAPABILITY_WORDS), this.pick(CAPABILITY_WORDS)],
        }),
      );
      return "open unsaved.json";
    }
    if (roll < 0.17 && this.scenario.shapeFiles.length > 0) {
      const { file, edit } = this.pick(this.scenario.shapeFiles);
      const absolute = this.file(file);
      const uri = uriOf(absolute);
      if (this.texts.has(uri)) {
        await this.close(uri);
        return `close ${file}`;
      }
      await this.open(absolute, edit(readFileSync(absolute, "utf8")));
      return `open ${file} changed`;
    }
    if (roll < 0.2 && this.scenario.diskFiles?.length) {
      const { file, text } = this.pick(this.scenario.diskFiles);
      const absolute = this.file(file);
      const created = !existsSync(absolute);
      if (created) {
        mkdirSync(path.dirname(absolute), { recursive: true });
        writeFileSync(absolute, text);
      } else rmSync(absolute);
      // A blank line at the end of an open document: the edit that makes the server check again.
      const uri = this.pick(open);
      await this.splice(uri, this.texts.get(uri)!.length, 0, "\n");
      return `${created ? "create" : "delete"} ${file} on disk, then a blank line in ${uri}`;
    }
    const uri = this.pick(open);
    const text = this.texts.get(uri)!;
    if (roll < 0.22 && open.length > 1) {
      // Never the last one: with none open the server forgets the app.
      await this.close(uri);
      return `close ${uri}`;
    }
    if (roll < 0.27) {
      // The whole text again as on disk (or empty for the unsaved file): every finding back.
      let disk: string;
      try {
        disk = readFileSync(fileURLToPath(uri), "utf8");
      } catch {
        disk = "{}";
      }
      this.texts.set(uri, disk);
      await this.client.change(uri, disk);
      return `revert ${uri}`;
    }
    const lines = [...text.matchAll(/[^\n]*\n/g)];
    if (roll < 0.37 && lines.length > 1) {
      // Formatting only: the parsed value stays, the positions after the edit move. No rule of the
      // value runs again; rules that read the text (a line named in a message) do, and every finding is placed anew.
      const kind = this.pick(["blank line", "indent", "reformat"]);
      const line = this.pick(lines);
      if (kind === "reformat" && uri.endsWith(".json")) {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          value = undefined;
        }
        if (value !== undefined) {
          const reformatted = `${JSON.stringify(value, null, this.pick([0, 2, 4, "\t"]))}\n`;
          this.texts.set(uri, reformatted);
          await this.client.change(uri, reformatted);
          return `reformat ${uri}`;
        }
      }
      const insert = kind === "indent" ? "  " : "\n";
      await this.splice(uri, line.index, 0, insert);
      return `${kind} before ${JSON.stringify(line[0])} in ${uri}`;
    }
    const strings = [...text.matchAll(/"([^"\\\n]*)"/g)];
    if (roll < 0.45 && strings.length > 0) {
      // A value of the wrong type: the schema's findings.
      const match = this.pick(strings);
      const value = this.pick(["42", "[]", "{}", "true", "null", '["main", 1]']);
      await this.splice(uri, match.index, match[0].length, value);
      return `replace ${match[0]} with ${value} in ${uri}`;
    }
    if (roll < 0.67 && strings.length > 0) {
      const match = this.pick(strings);
      const word = this.pick(CAPABILITY_WORDS);
      await this.splice(uri, match.index + 1, match[1]!.length, word);
      return `replace "${match[1]}" with "${word}" in ${uri}`;
    }
    if (roll < 0.76 && lines.length > 1) {
      const line = this.pick(lines);
      await this.splice(uri, line.index, line[0].length, "");
      return `delete line ${JSON.stringify(line[0])} in ${uri}`;
    }
    if (roll < 0.83 && lines.length > 0) {
      const line = this.pick(lines);
      await this.splice(uri, line.index, 0, line[0]);
      return `repeat line ${JSON.stringify(line[0])} in ${uri}`;
    }
    if (roll < 0.9) {
      const at = text.indexOf("[");
      const entry = `"${this.pick(CAPABILITY_WORDS)}", `;
      await this.splice(uri, at === -1 ? 0 : at + 1, 0, entry);
      return `insert ${entry} in ${uri}`;
    }
    const at = Math.floor(this.random() * (text.length + 1));
    const typed = this.pick([",", "{", "]", '"', " ", "x"]);
    await this.splice(uri, at, 0, typed);
    return `type ${typed} at ${at} in ${uri}`;
  }

  /**
   * Waits until the server has checked every edit so far: a hover checks the app with everything typed
   * first, and its answer comes after the diagnostics that check published. One per open document, so
   * that a document just opened is known to belong to the app before the last one is asked.
   */
  async settle(): Promise<void> {
    for (const uri of this.texts.keys())
      await this.client.connection.sendRequest("textDocument/hover", {
        textDocument: { uri },
        position: { line: 0, character: 0 },
      });
  }

  /** What the client was last told, per file, and what a fresh check of the same texts finds. */
  async compare(settings: unknown): Promise<{ told: Told; fresh: Told }> {
    const texts = new Map(
      [...this.texts].map(([uri, text]) => [fileURLToPath(uri), text] as const),
    );
    const analysis = await analyzeApp(
      this.scenario.target,
      texts,
      readSettings(settings).settings,
      { ...process.env, CAPLINT_CARGO_REGISTRY: "off" },
      new CheckSession(),
    );
    const fresh: Told = new Map();
    for (const d of analysis.result.diagnostics) {
      const uri = uriOf(d.absolutePath);
      fresh.set(uri, [...(fresh.get(uri) ?? []), toLspDiagnostic(d)]);
    }
    for (const [uri, list] of fresh) fresh.set(uri, boundedFindings(list));
    const told: Told = new Map();
    for (const { uri, diagnostics } of this.client.published) told.set(uri, diagnostics);
    for (const uri of new Set([...told.keys(), ...fresh.keys()])) {
      if (!told.has(uri)) told.set(uri, []);
      if (!fresh.has(uri)) fresh.set(uri, []);
    }
    // As the client received them: through JSON.
    return { told: sorted(told), fresh: sorted(JSON.parse(JSON.stringify([...fresh])) as Entries) };
  }
}

type Told = Map<string, LspDiagnostic[]>;
type Entries = Array<[string, LspDiagnostic[]]>;

function sorted(entries: Iterable<[string, LspDiagnostic[]]>): Told {
  return new Map([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function dataans(): Scenario {
  const app = copyApp("real-world/build-truth/TheBestTvarynka__Dataans");
  const root = path.join(app.dir, "dataans");
  return {
    workspace: app.dir,
    target: { root, srcTauri: path.join(root, "src-tauri") },
    capabilityFiles: [
      "capabilities/desktop.json",
      "capabilities/migrated.json",
      "capabilities/app-info.json",
      "capabilities/cf-auth.json",
    ],
    shapeFiles: [
      {
        file: "Cargo.toml",
        edit: (text) => text.replace('tauri-plugin-autostart = "2"\n', ""),
      },
      {
        file: "tauri.conf.json",
        edit: (text) =>
          text.replace('"title": "dataans",', '"title": "dataans", "label": "primary",'),
      },
    ],
    remove: app.remove,
  };
}

function withFrontend(): Scenario {
  const app = frontendApp(2);
  // settings.ts imports a module that exists only while a step has created it.
  const settings = path.join(app.dir, "src/settings.ts");
  writeFileSync(
    settings,
    `import { extra } from "./extra";\n${readFileSync(settings, "utf8")}\nextra();\n`,
  );
  return {
    workspace: app.dir,
    target: { root: app.dir, srcTauri: path.join(app.dir, "src-tauri") },
    capabilityFiles: ["capabilities/default.json", "capabilities/settings.toml"],
    shapeFiles: [
      {
        file: "../src/settings.ts",
        edit: (text) =>
          text.replace("readTextFile", "writeTextFile").replace("theme.css", "theme.bak"),
      },
      { file: "../src/lib/m0.ts", edit: (text) => text.replace("setTitle", "close") },
    ],
    diskFiles: [
      {
        file: "../src/extra.ts",
        text: 'import { getCurrentWindow } from "@tauri-apps/api/window";\n\nexport function extra() {\n  return getCurrentWindow().close();\n}\n',
      },
      // A folder that shadows nothing, then holds a module a request reaches: ./lib/m1 stays the file.
      { file: "../src/lib/m1/index.ts", text: "export const shadow = 1;\n" },
    ],
    remove: app.remove,
  };
}

describe("caplint lsp: incremental checks equal fresh ones", () => {
  let cleanUp: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const clean of cleanUp.reverse()) await clean();
    cleanUp = [];
  });

  /** A server on the scenario's workspace and an editor on it, both stopped and removed after the test. */
  async function editing(scenario: Scenario, settings: { debounceMs: number }, seed: number) {
    cleanUp.push(scenario.remove);
    const client = await startServer(scenario.workspace, {
      initializationOptions: { caplint: settings },
    });
    cleanUp.push(() => client.stop());
    return { scenario, client, editor: new Editor(client, scenario, seed) };
  }
  const cases = [
    { name: "a real app (Cargo files, build.rs)", scenario: dataans, seed: 1, debounceMs: 0 },
    { name: "a real app, default debounce", scenario: dataans, seed: 2, debounceMs: 50 },
    { name: "an app with a frontend", scenario: withFrontend, seed: 3, debounceMs: 0 },
    { name: "a real app, other edits", scenario: dataans, seed: 4, debounceMs: 0 },
    { name: "an app with a frontend, other edits", scenario: withFrontend, seed: 5, debounceMs: 0 },
  ];
  it("a finding that names a line of another file follows that line through formatting edits", async () => {
    const settings = { debounceMs: 0 };
    const { client, editor } = await editing(dataans(), settings, 0);
    const desktop = editor.file("capabilities/desktop.json");
    const migrated = editor.file("capabilities/migrated.json");
    await editor.open(desktop, readFileSync(desktop, "utf8"));
    await editor.open(migrated, readFileSync(migrated, "utf8"));
    const uri = uriOf(migrated);
    const same = async (step: string) => {
      await editor.settle();
      const { told, fresh } = await editor.compare(settings);
      expect(told, step).toEqual(fresh);
    };
    // The same identifier in both files: desktop.json's finding names migrated.json's line.
    const text = editor.texts.get(uri)!;
    const at = text.indexOf('"migrated"');
    await editor.splice(uri, at + 1, "migrated".length, "desktop-capability");
    await same("duplicate identifier");
    const named = () =>
      client.published
        .filter((p) => p.uri === uriOf(desktop))
        .at(-1)!
        .diagnostics.find((d) => d.code === "duplicate-capability")!.message;
    expect(named()).toMatch(/migrated\.json:\d+/);
    const before = named();
    // Blank lines above it in migrated.json: no value changes, the line named does.
    await editor.splice(uri, 0, 0, "\n\n");
    await same("blank lines in the other file");
    expect(named()).not.toBe(before);
    await editor.client.change(uri, JSON.stringify(JSON.parse(editor.texts.get(uri)!)));
    editor.texts.set(uri, JSON.stringify(JSON.parse(editor.texts.get(uri)!)));
    await same("the other file reformatted on one line");
    expect(named()).toMatch(/migrated\.json:1\b/);
  });

  it("a module created or deleted on disk behind the server's back is seen by the next check, though the imports' resolutions are kept", async () => {
    const settings = { debounceMs: 0 };
    const { scenario, client, editor } = await editing(withFrontend(), settings, 0);
    const module = editor.file("../src/settings.ts");
    const uri = uriOf(module);
    await editor.open(module, readFileSync(module, "utf8"));
    const same = async (step: string) => {
      const { told, fresh } = await editor.compare(settings);
      expect(told, step).toEqual(fresh);
    };
    const checks = () => client.messages.filter((message) => / checked in /.test(message));
    const lastCheck = () => checks().at(-1);
    // A blank line at the end, checked before the next step: its own check's log line is waited for.
    const blankLine = async () => {
      const before = checks().length;
      await editor.splice(uri, editor.texts.get(uri)!.length, 0, "\n");
      for (let waited = 0; checks().length === before; waited += 10) {
        if (waited > 60_000) throw new Error(`no check after the edit:\n${checks().join("\n")}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await editor.settle();
    };
    const keptAfterTwoEdits = async (step: string) => {
      // The first check after a whole load states the folders and resolves; the next keeps it all.
      await blankLine();
      await blankLine();
      expect(lastCheck(), `${step}:\n${checks().join("\n")}`).toMatch(
        /frontend: 1 of \d+ modules parsed, 0 imports resolved$/,
      );
      await same(step);
    };
    // The first check (a whole load) done before the first edit, which then has a check of its own.
    for (let waited = 0; checks().length === 0; waited += 10) {
      if (waited > 60_000) throw new Error("no first check");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await editor.settle();
    await keptAfterTwoEdits("blank lines");
    for (const { file, text } of scenario.diskFiles!) {
      const absolute = editor.file(file);
      const refused = () =>
        client.published
          .filter((p) => p.uri === uriOf(absolute))
          .at(-1)
          ?.diagnostics.some((d) => d.code === "frontend-command-not-granted") ?? false;
      mkdirSync(path.dirname(absolute), { recursive: true });
      writeFileSync(absolute, text);
      await blankLine();
      await same(`${file} created on disk`);
      if (text.includes("close()")) expect(refused()).toBe(true);
      await keptAfterTwoEdits(`${file} created, then blank lines`);
      rmSync(absolute);
      await blankLine();
      await same(`${file} deleted on disk`);
      expect(refused()).toBe(false);
      await keptAfterTwoEdits(`${file} deleted, then blank lines`);
    }
  });

  for (const { name, scenario: make, seed, debounceMs } of cases) {
    it(`${name}: 40 random edits, seed ${seed}`, { timeout: 180_000 }, async () => {
      const settings = { debounceMs };
      const { scenario, client, editor } = await editing(make(), settings, seed);
      const random = prng(seed * 7919);
      const log: string[] = [];
      let compared = 0;
      for (let step = 0; step < 40; step++) {
        log.push(await editor.step());
        // A burst of edits the server may take together, then the comparison.
        if (random() < 0.5 && step < 39) continue;
        await editor.settle();
        const { told, fresh } = await editor.compare(settings);
        expect(told, `after: ${log.join("; ")}`).toEqual(fresh);
        compared++;
      }
      expect(compared).toBeGreaterThan(5);
      // Each way of keeping findings was taken: rules whose inputs did not change kept theirs, and
      // rules of one document ran over the edited files only (the server's log line of each check).
      const checks = client.messages.filter((message) => / checked in /.test(message));
      const kept = checks.map((line) => Number(/(\d+) kept/.exec(line)?.[1] ?? 0));
      expect(
        kept.some((count) => count > 0),
        checks.join("\n"),
      ).toBe(true);
      expect(
        checks.some((line) => / over \d+ files?\)/.test(line)),
        checks.join("\n"),
      ).toBe(true);
      // With a frontend: some checks kept every import's resolution from the last scan (the folders
      // unchanged), and the disk's changes were seen all the same (the comparisons above).
      if (scenario.diskFiles) {
        expect(
          checks.some((line) => /, 0 imports resolved$/.test(line)),
          checks.join("\n"),
        ).toBe(true);
        expect(log.filter((step) => step.startsWith("create ")).length).toBeGreaterThan(0);
      }
      // The edits reached findings: a sequence that never found anything would test nothing.
      expect(client.published.some((p) => p.diagnostics.length > 0)).toBe(true);
    });
  }
});
