import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveAccess } from "../../src/capabilities/engine/index.js";
import { lint } from "../../src/capabilities/lint.js";
import { loadProject } from "../../src/capabilities/load/project.js";
import { diffAccess } from "../../src/capabilities/queries/diff.js";
import { knownWindowLabels, resolveProject } from "../../src/capabilities/queries/project-model.js";
import { resolvePlatformGroups } from "../../src/capabilities/queries/platforms.js";
import {
  escapeHtml,
  renderReportHtml,
  scriptJson,
} from "../../src/capabilities/html-report/html.js";
import {
  APP_COMMANDS,
  buildReport,
  heatLevel,
  pluginOf,
  type ReportData,
} from "../../src/capabilities/html-report/model.js";
import { FIXTURES, ROOT, run } from "../helpers/run.js";
import {
  cleanup,
  dangerousApp,
  HOSTILE_CAPABILITY,
  HOSTILE_LABEL,
  hostileApp,
  splitApp,
  writeApp,
} from "./html-report-projects.js";

const APP = path.join(FIXTURES, "queries", "app");
const APP_V2 = path.join(FIXTURES, "queries", "app-v2");
const scratch = mkdtempSync(path.join(tmpdir(), "caplint-report-out-"));
afterAll(() => {
  cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** The report data for an app folder, built the way `caplint report` builds it. */
async function reportFor(dir: string, against?: string, platform = "linux"): Promise<ReportData> {
  const project = await loadProject({ cwd: ROOT, paths: [dir] });
  const asked = [platform];
  const result = await lint(project, { platforms: asked });
  const groups = resolvePlatformGroups(project, asked);
  const input = {
    project,
    groups,
    asked,
    lint: result,
    windows: knownWindowLabels(project),
    origin: { kind: "local" as const },
    app: path.relative(ROOT, dir),
    toolVersion: "9.9.9",
  };
  if (against === undefined) return buildReport(input);
  const baseline = await loadProject({ cwd: ROOT, paths: [against] });
  return buildReport({
    ...input,
    against: {
      label: path.relative(ROOT, against),
      project: baseline,
      groups: resolvePlatformGroups(baseline, asked),
    },
  });
}

const cellOf = (data: ReportData, window: string, plugin: string) => {
  const row = data.windows.indexOf(window);
  const col = data.columns.findIndex((c) => c.id === plugin);
  expect(row, `window ${window}`).toBeGreaterThanOrEqual(0);
  expect(col, `plugin ${plugin}`).toBeGreaterThanOrEqual(0);
  return data.cells[row]![col]!;
};

/** The JSON the page embeds, read back as the page's script reads it. */
function embedded(html: string): ReportData {
  const match = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]!) as ReportData;
}

describe("escaping", () => {
  it("escapes the five markup characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;",
    );
  });

  it("embeds JSON that cannot end its script element and parses back to the same value", () => {
    const value = { text: `</script><script>alert(1)</script><!-- \u2028 & "q" 'a'` };
    const json = scriptJson(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it("labels, capability identifiers, titles and messages with markup stay text", async () => {
    const dir = hostileApp();
    const data = await reportFor(dir);
    const html = renderReportHtml(data);
    // Only the page's own two script elements, and no element made from the input.
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html).not.toContain("<img");
    expect(html).not.toContain(`alert("label")`);
    expect(html).toContain("&lt;script&gt;alert(&quot;label&quot;)&lt;/script&gt;&#39;x");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(&#39;cap&#39;)&quot;&gt;");
    expect(html).toContain(
      "<title>Capability report: &lt;/script&gt;&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;</title>",
    );
    // The lint message quoting the label is escaped where it enters the findings table.
    expect(data.findings.map((f) => f.ruleId)).toContain("invalid-label-pattern");
    expect(html).toContain(
      "window pattern &quot;&lt;script&gt;alert(&quot;label&quot;)&lt;/script&gt;&#39;x&quot;",
    );
    // The embedded data round-trips exactly.
    const back = embedded(html);
    expect(back.windows).toEqual([HOSTILE_LABEL, "main"]);
    expect(back.rows[1]!.capabilities).toEqual([HOSTILE_CAPABILITY]);
    expect(back).toEqual(JSON.parse(JSON.stringify(data)));
  });

  it("the Content-Security-Policy allows exactly the inline style and script by hash, and nothing from the network", async () => {
    const html = renderReportHtml(await reportFor(APP));
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/
      .exec(html)![1]!
      .replace(/&#39;/g, "'");
    const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(csp).toContain(`script-src ${hash(script)}`);
    expect(csp).toContain(`style-src ${hash(style)}`);
    expect(csp).toContain("default-src 'none'");
    // No URL the browser could fetch: no src or href attribute, no url() in the style.
    expect(html).not.toMatch(/\s(src|href)=/i);
    expect(style).not.toMatch(/url\(|@import/i);
  });
});

describe("report data", () => {
  it("counts windows, plugins, commands, capabilities and findings of the sample app", async () => {
    const data = await reportFor(APP);
    expect(data.windows).toEqual(["main", "main-editor", "settings", "docs"]);
    expect(data.columns.map((c) => c.label)).toEqual([
      "app",
      "dialog",
      "event",
      "fs",
      "image",
      "menu",
      "path",
      "resources",
      "tray",
      "webview",
      "window",
      "app commands",
    ]);
    expect(data.counts).toEqual({
      windows: 4,
      plugins: 12,
      callable: 96,
      denied: 1,
      capabilities: 3,
      inactiveCapabilities: 1,
      remote: 0,
      errors: 0,
      warnings: 1,
      suggestions: 0,
      dangerousFindings: 0,
      dangerousCells: 0,
    });
    expect(data.title).toBe("dev.caplint.queries");
    expect(data.rows.map((r) => [r.window, r.callable, r.denied, r.capabilities])).toEqual([
      ["main", 96, 1, ["main"]],
      ["main-editor", 96, 1, ["main"]],
      ["settings", 0, 0, []],
      ["docs", 0, 0, []],
    ]);
    expect(data.findings.map((f) => [f.ruleId, f.severity, f.file, f.line, f.column])).toEqual([
      [
        "deny-applies-globally",
        "warning",
        "fixtures/queries/app/src-tauri/capabilities/lockdown.json",
        8,
        5,
      ],
    ]);
    expect(data.capabilities.map((c) => [c.identifier, c.inactive])).toEqual([
      ["lockdown", false],
      ["main", false],
      ["remote-docs", false],
      ["settings", true],
    ]);
  });

  it("each cell holds the window's callable commands of one plugin, with their chains", async () => {
    const data = await reportFor(APP);
    const fs = cellOf(data, "main", "fs");
    expect(fs.count).toBe(2);
    const chains = fs.commands.map((c) => [
      c.command,
      c.grantedBy
        .map((i) => data.entries[i])
        .map((e) => [e!.capability, ...e!.chain].join(" › ") + ` ${e!.file}:${e!.line}`),
    ]);
    expect(chains).toEqual([
      [
        "plugin:fs|read_file",
        [
          "main › extra › fs:allow-read-file fixtures/queries/app/src-tauri/capabilities/main.json:4",
        ],
      ],
      [
        "plugin:fs|write_text_file",
        ["main › fs:allow-write-text-file fixtures/queries/app/src-tauri/capabilities/main.json:4"],
      ],
    ]);
    expect(fs.commands[1]!.scope).toEqual({ allow: ['{"path":"$APPDATA/notes/*"}'], deny: [] });
    const window = cellOf(data, "main", "window");
    expect(window.count).toBe(28);
    expect(
      window.denied.map((d) => [
        d.command,
        d.deniedBy.map(
          (i) => `${data.entries[i]!.capability} ${data.entries[i]!.file}:${data.entries[i]!.line}`,
        ),
      ]),
    ).toEqual([
      [
        "plugin:window|close",
        ["lockdown fixtures/queries/app/src-tauri/capabilities/lockdown.json:8"],
      ],
    ]);
    expect(cellOf(data, "main", APP_COMMANDS).commands.map((c) => c.command)).toEqual(["greet"]);
    expect(cellOf(data, "settings", "window")).toMatchObject({ count: 0, commands: [], heat: 0 });
    expect(window.heat).toBe(8);
  });

  it("agrees with `access` for every window: the cells of a row are exactly its allowed commands", async () => {
    for (const dir of [APP, APP_V2, dangerousApp()]) {
      const project = await loadProject({ cwd: ROOT, paths: [dir] });
      const model = resolveProject(project, "linux");
      const data = await reportFor(dir);
      for (const [r, window] of data.windows.entries()) {
        const allowed = resolveAccess(model, { window }).allowed.map((a) => a.command);
        const inCells = data.cells[r]!.flatMap((cell, col) =>
          cell.commands.map(
            (c) => (expect(pluginOf(c.command)).toBe(data.columns[col]!.id), c.command),
          ),
        );
        expect(inCells.sort()).toEqual([...allowed].sort());
        expect(data.cells[r]!.reduce((n, cell) => n + cell.count, 0)).toBe(allowed.length);
      }
    }
  });

  it("heat grows with the count, logarithmically, and only zero is level 0", () => {
    expect([0, 1, 2, 5, 28].map((n) => heatLevel(n, 28))).toEqual([0, 2, 3, 5, 8]);
    expect(heatLevel(1, 1)).toBe(8);
    for (let n = 1; n < 200; n++)
      expect(heatLevel(n + 1, 200)).toBeGreaterThanOrEqual(heatLevel(n, 200));
  });
});

describe("dangerous grants", () => {
  it("marks the cells and commands the dangerous-permission findings are about, and no others", async () => {
    const data = await reportFor(dangerousApp());
    const findings = data.findings.filter((f) => f.ruleId === "dangerous-permission");
    expect(findings.length).toBeGreaterThanOrEqual(3);
    expect(data.counts.dangerousFindings).toBe(findings.length);
    const marked = data.cells.flatMap((cells, r) =>
      cells.flatMap((cell, c) =>
        cell.dangerous ? [`${data.windows[r]} × ${data.columns[c]!.id}`] : [],
      ),
    );
    expect(marked).toEqual(["main × fs", "main × shell", "viewer × fs"]);
    expect(data.counts.dangerousCells).toBe(3);
    expect(data.rows.map((r) => r.dangerous)).toEqual([2, 1]);
    // `open` comes from fs:allow-write-file too, but only yields a handle: the rule does not count it.
    const fs = cellOf(data, "main", "fs");
    expect(fs.commands.map((c) => [c.command, !!c.dangers])).toEqual([
      ["plugin:fs|open", false],
      ["plugin:fs|read_file", true],
      ["plugin:fs|write", true],
      ["plugin:fs|write_file", true],
    ]);
    // Each flagged command points at the findings naming it; the cell lists every finding about it.
    const message = (i: number) => data.findings[i]!.message;
    expect(fs.commands[3]!.dangers!.map(message)).toEqual([
      expect.stringMatching(
        /^dangerous grant "fs:allow-write-file" \(plugin:fs\|write_file, plugin:fs\|write\): a script in windows "main" could create, overwrite or delete files across "\$HOME\/\*\*"/,
      ),
    ]);
    expect(fs.commands[1]!.dangers!.map((i) => [data.findings[i]!.severity, message(i)])).toEqual([
      // Every window, but no remote page: a warning (the host serves only the app's own pages there).
      [
        "warning",
        expect.stringContaining(
          '(plugin:fs|read_file) with the scope of "fs:scope": a script in every window ("*")',
        ),
      ],
    ]);
    expect(fs.dangers!.map(message)).toEqual(
      expect.arrayContaining(
        [...fs.commands[3]!.dangers!, ...fs.commands[1]!.dangers!].map(message),
      ),
    );
    expect(
      cellOf(data, "viewer", "fs").commands.map((c) => [
        c.command,
        c.dangers?.map((i) => data.findings[i]!.severity),
      ]),
    ).toEqual([["plugin:fs|read_file", ["warning"]]]);
    expect(cellOf(data, "main", "shell").dangers!.map(message)).toEqual([
      expect.stringContaining('dangerous grant "shell:allow-execute" (plugin:shell|execute)'),
    ]);
    expect(cellOf(data, "main", "window")).toMatchObject({ dangerous: false });
    expect(cellOf(data, "main", "window").dangers).toBeUndefined();
  });

  it("a set granting many dangerous commands marks each of them, however few the message names", async () => {
    const data = await reportFor(
      writeApp({
        "tauri.conf.json": {
          identifier: "dev.caplint.write-all",
          app: { windows: [{ label: "main" }, { label: "viewer" }] },
        },
        "capabilities/main.json": {
          identifier: "main",
          windows: ["main"],
          permissions: [
            "core:default",
            { identifier: "fs:write-all", allow: [{ path: "$HOME/**" }] },
          ],
        },
        "capabilities/viewer.json": {
          identifier: "viewer",
          windows: ["viewer"],
          permissions: ["fs:allow-read-file"],
        },
      }),
    );
    const fs = cellOf(data, "main", "fs");
    expect(fs.dangerous).toBe(true);
    const about = fs
      .dangers!.map((i) => data.findings[i]!.message)
      .filter((m) => m.startsWith('dangerous grant "fs:write-all"'));
    expect(about).toHaveLength(1);
    expect(about[0]).toMatch(/ and \d+ more\)/);
    // Every write command of the set is marked by that finding, and nothing else is.
    const writes = new Set(
      [
        "write_file",
        "write_text_file",
        "write",
        "remove",
        "rename",
        "copy_file",
        "truncate",
        "ftruncate",
        "create",
      ].map((c) => `plugin:fs|${c}`),
    );
    for (const command of fs.commands) {
      const byWriteAll =
        command.dangers?.some((i) =>
          data.findings[i]!.message.startsWith('dangerous grant "fs:write-all"'),
        ) ?? false;
      expect(byWriteAll, command.command).toBe(writes.has(command.command));
    }
    expect(cellOf(data, "viewer", "fs")).toMatchObject({ count: 1, dangerous: false });
  });

  it("the page marks exactly those cells, with the legend", async () => {
    const data = await reportFor(dangerousApp());
    const html = renderReportHtml(data);
    const dangerCells = [
      ...html.matchAll(/<td class="cell[^"]*\bdanger\b[^"]*"[^>]*data-plugin="([^"]*)"[^>]*>/g),
    ].map((m) => m[1]);
    expect(dangerCells).toEqual(["fs", "shell", "fs"]);
    expect(html.match(/data-danger="true"/g)).toHaveLength(3);
    expect(html.match(/<span class="mark-danger" aria-hidden="true">⚠<\/span>/g)).toHaveLength(3);
    expect(html).toContain("dangerous grant (<code>dangerous-permission</code>)");
    expect(html).toContain(
      `data-stat="dangerous"><div class="value">${data.counts.dangerousFindings}</div>`,
    );
    const safe = renderReportHtml(await reportFor(APP));
    expect(safe).not.toContain("data-danger=");
    expect(safe).not.toContain('class="mark-danger"');
  });
});

describe("diff against a baseline", () => {
  it("is left out without --against", async () => {
    const data = await reportFor(APP);
    expect(data.diff).toBeUndefined();
    const html = renderReportHtml(data);
    expect(html).not.toContain('id="diff"');
    expect(html).not.toContain('data-stat="added"');
    expect(html).not.toContain("new since the baseline");
  });

  it("lists new and removed access as diffAccess finds them, and marks new access in the cells", async () => {
    const data = await reportFor(APP, APP_V2);
    const project = await loadProject({ cwd: ROOT, paths: [APP] });
    const baseline = await loadProject({ cwd: ROOT, paths: [APP_V2] });
    const expected = diffAccess(
      resolveProject(baseline, "linux"),
      resolveProject(project, "linux"),
    );
    expect(data.diff!.addedCount).toBe(expected.added.length);
    expect(data.diff!.removedCount).toBe(expected.removed.length);
    expect(data.diff!.added.flatMap((g) => g.grants.map((x) => x.command))).toEqual(
      expected.added.map((g) => g.command),
    );
    // The sample app grants "main-*" what its next version only grants "main".
    expect(
      data.diff!.added.map((g) => [g.target, g.pattern, g.context, g.reaches, g.grants.length]),
    ).toEqual([["window", "main-*", "local", ["main-editor"], 96]]);
    expect(
      data.diff!.removed.map((g) => [g.pattern, g.context, g.grants.map((x) => x.command)]),
    ).toEqual([
      [
        "docs",
        "https://partner.dev",
        [
          "plugin:event|emit",
          "plugin:event|emit_to",
          "plugin:event|listen",
          "plugin:event|unlisten",
          "plugin:window|set_title",
        ],
      ],
      ["docs", "http://localhost:8080", ["plugin:window|set_title"]],
      ["docs", "https://*.example.com", ["plugin:window|set_title"]],
    ]);
    expect(data.diff!.removed[0]!.grants[4]).toMatchObject({
      capability: "remote-docs",
      chain: ["core:window:allow-set-title"],
      file: "fixtures/queries/app-v2/src-tauri/capabilities/remote.json",
      line: 16,
    });
    expect(cellOf(data, "main-editor", "fs").commands.every((c) => c.added)).toBe(true);
    expect(cellOf(data, "main", "fs").commands.some((c) => c.added)).toBe(false);
    expect(data.rows.map((r) => r.added)).toEqual([0, 96, 0, 0]);
    expect(data.counts).toMatchObject({ added: 96, removed: 7 });

    const html = renderReportHtml(data);
    expect(html).toContain('<section id="diff"');
    expect(html).toContain('data-pattern="main-*" data-context="local"');
    expect(html).toContain('<code class="chip new" data-command="plugin:fs|read_file"');
    expect(html).toContain('<code class="chip removed" data-command="plugin:window|set_title"');
    expect(html).toContain("fixtures/queries/app-v2");
  });

  it("reversed, the same change reads as new remote access", async () => {
    const data = await reportFor(APP_V2, APP);
    expect(data.diff!.added.map((g) => [g.pattern, g.context, g.grants.length])).toEqual([
      ["docs", "https://partner.dev", 5],
      ["docs", "http://localhost:8080", 1],
      ["docs", "https://*.example.com", 1],
    ]);
    expect(cellOf(data, "main", "fs").removed).toBeUndefined();
  });
});

describe("caplint report", () => {
  it("writes the page, says what is in it and exits 0 even with error findings and new access", async () => {
    const out = path.join(scratch, "app.html");
    const result = await run(
      [
        "report",
        "fixtures/queries/app",
        "--against",
        "fixtures/queries/app-v2",
        "--platform",
        "linux",
        "--html",
        out,
      ],
      ROOT,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `wrote ${out}: 4 windows × 12 plugins on linux, every origin; 4 command grants from remote pages only; 0 errors, 1 warning; 0 dangerous grants; 96 new and 7 removed command grants, 1 wider scope value against fixtures/queries/app-v2\n`,
    );
    const html = readFileSync(out, "utf8");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(embedded(html)).toMatchObject({
      app: "fixtures/queries/app",
      platform: "linux",
      origin: "any",
      tool: { name: "caplint" },
    });

    // A shell command from remote pages: a dangerous-permission error, and still exit 0.
    const dangerous = await run(
      [
        "report",
        "--app",
        splitApp(),
        "--platform",
        "linux",
        "--html",
        path.join(scratch, "danger.html"),
      ],
      ROOT,
    );
    expect(dangerous.code).toBe(0);
    expect(dangerous.stdout).toMatch(/; 1 error, \d+ warnings?; \d+ dangerous grants?\n$/);
  });

  it("takes the origin, the windows and the platform like the other queries", async () => {
    const result = await run(
      [
        "report",
        "--url",
        "https://docs.example.com/a",
        "-w",
        "docs",
        "-w",
        "main",
        "--platform",
        "linux",
        "--html",
        "-",
      ],
      APP,
    );
    expect(result.code).toBe(0);
    const data = embedded(result.stdout);
    expect(data.origin).toBe("https://docs.example.com/a");
    expect(data.windows).toEqual(["docs", "main"]);
    expect(data.app).toBe(".");
    expect(data.rows.map((r) => [r.window, r.callable])).toEqual([
      ["docs", 4],
      ["main", 0],
    ]);
    const macOS = embedded(
      (await run(["report", "--platform", "macOS", "--html", "-"], APP)).stdout,
    );
    expect(macOS.rows.find((r) => r.window === "settings")!.callable).toBe(1);
    expect(macOS.counts.inactiveCapabilities).toBe(0);
  });

  it("answers for every platform and every origin by default: platform splits shown, remote-only grants counted (HTML, data and summary line)", async () => {
    const dir = splitApp();
    const out = path.join(scratch, "split.html");
    const result = await run(["report", "--app", dir, "--html", out], ROOT);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^wrote .*split\.html: 2 windows × \d+ plugins on all platforms \(they differ\), every origin; \d+ command grants? from remote pages only; 1 error, \d+ warnings?; 1 dangerous grant\n$/,
    );
    const html = readFileSync(out, "utf8");
    const data = embedded(html);
    expect(data.platforms).toEqual(["linux", "macOS", "windows", "android", "iOS"]);
    expect(data.platform).toBeUndefined();
    expect(data.platformGroups.length).toBeGreaterThan(1);
    expect(data.origin).toBe("any");

    // The docs window's only grant is remote, and dangerous: it does not read "0 / no capability".
    const docs = data.rows.find((r) => r.window === "docs")!;
    expect(docs.capabilities).toEqual(["remote-shell"]);
    expect(docs.callable).toBeGreaterThan(0);
    expect(docs.remote).toBe(docs.callable);
    expect(docs.dangerous).toBe(1);
    const shell = cellOf(data, "docs", "shell");
    expect(shell.dangerous).toBe(true);
    expect(shell.commands.map((c) => [c.command, c.remoteOnly, c.dangers?.length])).toEqual([
      ["plugin:shell|execute", true, 1],
    ]);
    expect(data.entries[shell.commands[0]!.grantedBy[0]!]!.context).toBe(
      "https://docs.example.com",
    );
    expect(html).toMatch(
      /<tr data-window="docs"><th scope="row" class="window"><div class="label">docs<\/div><div class="via">via remote-shell<\/div>/,
    );
    expect(html).not.toMatch(/data-window="docs">.*no capability/);
    expect(html).toContain('data-meta="origin">every origin (local and remote)<');

    // A grant on some platforms only says which; the capability list says where a capability is off.
    const main = data.rows.find((r) => r.window === "main")!;
    const close = cellOf(data, "main", "window").commands.find(
      (c) => c.command === "plugin:window|close",
    )!;
    expect(close.platforms).toEqual(["linux", "macOS", "windows"]);
    expect(close.remoteOnly).toBeUndefined();
    const openUrl = cellOf(data, "main", "opener").commands.find(
      (c) => c.command === "plugin:opener|open_url",
    )!;
    expect(openUrl.platforms).toEqual(["iOS"]);
    expect(cellOf(data, "main", "window").platformSpecific).toBeGreaterThan(0);
    expect(main.callable).toBe(
      cellOf(data, "main", "window").count + cellOf(data, "main", "opener").count,
    );
    expect(data.capabilities.find((c) => c.identifier === "desktop")).toMatchObject({
      inactive: false,
      inactiveOn: ["android", "iOS"],
    });
    expect(data.capabilities.find((c) => c.identifier === "phone")).toMatchObject({
      inactive: false,
      inactiveOn: ["linux", "macOS", "windows", "android"],
    });
    expect(html).toContain('<span class="off">not on android, iOS</span>');
    expect(html).toContain('data-meta="platform">all platforms<');

    // --platform narrows (case-insensitive); --url local is the old local-only view.
    const ios = embedded(
      (await run(["report", "--app", dir, "--platform", "ios", "--html", "-"], ROOT)).stdout,
    );
    expect(ios).toMatchObject({ platforms: ["iOS"], platform: "iOS", platformGroups: [["iOS"]] });
    expect(cellOf(ios, "main", "opener").commands.map((c) => [c.command, c.platforms])).toEqual([
      ["plugin:opener|open_url", undefined],
    ]);
    expect(ios.rows.find((r) => r.window === "main")!.capabilities).toEqual(["phone"]);
    const local = await run(
      ["report", "--app", dir, "--url", "local", "--platform", "linux", "--html", "-"],
      ROOT,
    );
    const localData = embedded(local.stdout);
    expect(localData.origin).toBe("local");
    expect(localData.rows.find((r) => r.window === "docs")).toMatchObject({
      callable: 0,
      capabilities: [],
      remote: 0,
    });
  });

  it("compares with a baseline on every platform, saying where a new grant holds", async () => {
    const base = splitApp();
    const pr = splitApp({
      "capabilities/mac-fs.json": {
        identifier: "mac-fs",
        windows: ["main"],
        platforms: ["macOS"],
        permissions: ["fs:allow-read-text-file"],
      },
    });
    const data = embedded(
      (await run(["report", "--app", pr, "--against", base, "--html", "-"], ROOT)).stdout,
    );
    expect(data.counts.added).toBe(1);
    expect(
      data.diff!.added.flatMap((g) => g.grants.map((grant) => [grant.command, grant.platforms])),
    ).toEqual([["plugin:fs|read_text_file", ["macOS"]]]);
    const fs = cellOf(data, "main", "fs").commands[0]!;
    expect(fs).toMatchObject({
      command: "plugin:fs|read_text_file",
      added: true,
      platforms: ["macOS"],
    });
  });

  it("lists wider scopes as caplint diff does: a global scope value allowed, a deny dropped, with the entry behind each", async () => {
    const base = splitApp({
      "capabilities/files.json": {
        identifier: "files",
        windows: ["main"],
        permissions: [
          "fs:allow-read-text-file",
          { identifier: "fs:allow-read-text-file", deny: [{ path: "$HOME/.ssh/**" }] },
        ],
      },
    });
    const pr = splitApp({
      "capabilities/files.json": {
        identifier: "files",
        windows: ["main"],
        permissions: ["fs:allow-read-text-file", "fs:scope-home-recursive"],
      },
    });
    const result = await run(
      ["report", "--app", pr, "--against", base, "--platform", "linux", "--html", "-"],
      ROOT,
    );
    expect(result.code).toBe(0);
    const data = embedded(result.stdout);
    expect(data.counts).toMatchObject({ added: 0, widened: 3 });
    expect(
      data.diff!.scopes.map((s) => [
        s.change,
        s.text,
        s.capability,
        s.chain[0],
        s.file.includes(path.basename(base)) ? "base" : "pr",
      ]),
    ).toEqual([
      [
        "no longer denied",
        'plugin:fs|read_text_file no longer denied {"path":"$HOME/.ssh/**"} for window "main" from local',
        "files",
        "fs:allow-read-text-file",
        "base",
      ],
      [
        "allowed",
        'global scope of fs (every fs command, every window) allowed {"path":"$HOME/**"}',
        "files",
        "fs:scope-home-recursive",
        "pr",
      ],
      [
        "allowed",
        'global scope of fs (every fs command, every window) allowed {"path":"$HOME"}',
        "files",
        "fs:scope-home-recursive",
        "pr",
      ],
    ]);
    expect(result.stdout).toContain(
      '<h3 class="diff-title new" id="diff-scopes">Wider scopes <span class="count">3 scope values</span></h3>',
    );
    expect(result.stdout).toContain("the baseline denied it in");
    const summary = await run(
      [
        "report",
        "--app",
        pr,
        "--against",
        base,
        "--platform",
        "linux",
        "--html",
        path.join(scratch, "scopes.html"),
      ],
      ROOT,
    );
    expect(summary.stdout).toContain(
      "0 new and 0 removed command grants, 3 wider scope values against",
    );
  });

  it("says so when there is no window to show", async () => {
    const dir = writeApp({
      "capabilities/any.json": {
        identifier: "any",
        windows: ["*"],
        permissions: ["core:window:allow-close"],
      },
    });
    const result = await run(
      ["report", path.join(dir, "src-tauri", "capabilities"), "--platform", "linux", "--html", "-"],
      ROOT,
    );
    expect(result.code).toBe(0);
    const data = embedded(result.stdout);
    expect(data.windows).toEqual([]);
    expect(data.counts).toMatchObject({ windows: 0, plugins: 1, callable: 0 });
    expect(result.stdout).toContain("No window labels: declare windows in tauri.conf.json");
    expect(result.stdout).not.toContain('<td class="cell');
  });

  it("-o and --output write the page as --html does, as every other command's output option", async () => {
    const args = ["report", "fixtures/queries/app", "--platform", "linux"];
    const byHtml = path.join(scratch, "by-html.html");
    const byOutput = path.join(scratch, "by-output.html");
    expect((await run([...args, "--html", byHtml], ROOT)).code).toBe(0);
    const written = await run([...args, "-o", byOutput], ROOT);
    expect(written.stderr).toBe("");
    expect(written.code).toBe(0);
    expect(written.stdout.startsWith(`wrote ${byOutput}: 4 windows`)).toBe(true);
    expect(readFileSync(byOutput, "utf8")).toBe(readFileSync(byHtml, "utf8"));
    const printed = await run([...args, "--output", "-"], ROOT);
    expect(printed.stdout).toBe(readFileSync(byHtml, "utf8"));
    // The same place twice is one; two places are a usage error, nothing written.
    expect((await run([...args, "--html", byHtml, "-o", byHtml], ROOT)).code).toBe(0);
    const other = path.join(scratch, "other.html");
    const both = await run([...args, "--html", byHtml, "-o", other], ROOT);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe(
      `caplint: report: --html ${byHtml} and --output ${other} name two places to write the page; give one\n`,
    );
    expect(existsSync(other)).toBe(false);
    writeFileSync(path.join(scratch, "not-a-folder"), "");
    const unwritable = await run(
      [...args, "-o", path.join(scratch, "not-a-folder", "r.html")],
      ROOT,
    );
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toMatch(/^caplint: --output .*r\.html: cannot write the report/);
  });

  it("usage and I/O problems exit 2", async () => {
    const missing = await run(["report", "fixtures/queries/app"], ROOT);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      "caplint: report: say where to write it with --html FILE or -o FILE (- for standard output)\n",
    );
    writeFileSync(path.join(scratch, "a-file"), "");
    const unwritable = await run(
      ["report", "fixtures/queries/app", "--html", path.join(scratch, "a-file", "r.html")],
      ROOT,
    );
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toMatch(/^caplint: --html .*r\.html: cannot write the report/);
    const baseline = await run(
      [
        "report",
        "fixtures/queries/app",
        "--against",
        "fixtures/queries/nope",
        "--html",
        path.join(scratch, "x.html"),
      ],
      ROOT,
    );
    expect(baseline.code).toBe(2);
    expect(baseline.stderr).toContain("nope");
    const url = await run(
      [
        "report",
        "fixtures/queries/app",
        "--url",
        "not a url",
        "--html",
        path.join(scratch, "y.html"),
      ],
      ROOT,
    );
    expect(url.code).toBe(2);
  });
});

describe("remote pages and the app's own commands", () => {
  /** The report over every origin (as `caplint report` without --url), for an app folder. */
  async function everyOriginReport(app: string): Promise<ReportData> {
    const project = await loadProject({ cwd: app });
    const asked = ["linux"];
    return buildReport({
      project,
      groups: resolvePlatformGroups(project, asked),
      asked,
      lint: await lint(project, { platforms: asked }),
      windows: knownWindowLabels(project),
      app: path.basename(app),
      toolVersion: "9.9.9",
    });
  }
  const REMOTE = path.join(FIXTURES, "queries", "remote-app-commands");

  it("tauri 2.0.6, no app permissions: the remote capability and its window are marked, every app command exposed", async () => {
    const data = await everyOriginReport(path.join(REMOTE, "tauri-2.0.6"));
    const docs = data.capabilities.find((c) => c.identifier === "docs-site")!;
    expect(docs.remoteAppCommands).toEqual({ unchecked: true, granted: [] });
    expect(data.capabilities.find((c) => c.identifier === "default")!.remoteAppCommands).toBe(
      undefined,
    );
    expect(data.rows.find((r) => r.window === "main")!.uncheckedRemoteAppCommands).toEqual([
      "docs-site",
    ]);
    expect(data.uncheckedRemoteAppCommands).toMatch(
      /^the app defines no permissions and tauri 2\.0\.6/,
    );
    const html = renderReportHtml(data);
    expect(html).toContain('data-remote-app-commands="unchecked"');
    expect(html).toContain("remote pages may call every command the app registers (not checked)");
    expect(html).toContain('data-unchecked-remote="docs-site"');
    expect(html).toContain(
      "data-unchecked-remote-app-commands>Exposed: the app defines no permissions",
    );
  });

  it("tauri 2.11.5 checks them: the remote capability says which app commands it grants (none), no window is marked", async () => {
    const data = await everyOriginReport(path.join(REMOTE, "tauri-2.11.5"));
    expect(data.capabilities.find((c) => c.identifier === "docs-site")!.remoteAppCommands).toEqual({
      unchecked: false,
      granted: [],
    });
    expect(data.rows.every((r) => r.uncheckedRemoteAppCommands === undefined)).toBe(true);
    expect(data.uncheckedRemoteAppCommands).toBe(undefined);
    const html = renderReportHtml(data);
    expect(html).toContain('data-remote-app-commands="0"');
    expect(html).toContain("remote pages may call no app command");
    expect(html).not.toContain("data-unchecked-remote");
  });

  it("an app that grants its own commands to remote pages: the capability lists them", async () => {
    const dir = mkdtempSync(path.join(scratch, "remote-app-"));
    const capabilities = path.join(dir, "src-tauri", "capabilities");
    const permissions = path.join(dir, "src-tauri", "permissions");
    mkdirSync(capabilities, { recursive: true });
    mkdirSync(permissions, { recursive: true });
    writeFileSync(
      path.join(dir, "src-tauri", "tauri.conf.json"),
      JSON.stringify({ app: { windows: [{ label: "main" }] } }),
    );
    writeFileSync(
      path.join(permissions, "notes.toml"),
      '[[permission]]\nidentifier = "allow-save-note"\ncommands.allow = ["save_note"]\n\n[[permission]]\nidentifier = "allow-list-notes"\ncommands.allow = ["list_notes"]\n',
    );
    writeFileSync(
      path.join(capabilities, "site.json"),
      JSON.stringify({
        identifier: "site",
        windows: ["main"],
        local: false,
        remote: { urls: ["https://docs.example.com"] },
        permissions: ["allow-save-note"],
      }),
    );
    writeFileSync(
      path.join(capabilities, "main.json"),
      JSON.stringify({ identifier: "main", windows: ["main"], permissions: ["allow-list-notes"] }),
    );
    const data = await everyOriginReport(dir);
    expect(data.capabilities.find((c) => c.identifier === "site")!.remoteAppCommands).toEqual({
      unchecked: false,
      granted: ["save_note"],
    });
    expect(renderReportHtml(data)).toContain(
      'data-remote-app-commands="1">app commands remote pages may call: <code>save_note</code>',
    );
  });
});
