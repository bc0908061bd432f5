import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT, run } from "../helpers/run.js";
import { describeWithTool } from "../helpers/tools.js";
import {
  cleanup,
  splitApp,
  dangerousApp,
  HOSTILE_LABEL,
  hostileApp,
} from "../capabilities/html-report-projects.js";

/**
 * `caplint report --html` opened in a real headless Chromium (Debian's, installed by
 * scripts/ensure-tools.sh): the page must make no request but for its own file, show the matrix,
 * fill the details panel on click and keyboard, and list findings and the diff. With
 * CAPLINT_UPDATE_SCREENSHOT=1 it also rewrites docs/report-screenshot.png.
 */
const CHROMIUM = "/usr/bin/chromium";
const HAS_CHROMIUM = existsSync(CHROMIUM);
const SCREENSHOT = path.join(ROOT, "docs", "report-screenshot.png");

const scratch = mkdtempSync(path.join(tmpdir(), "caplint-report-browser-"));
let browser: Browser | undefined;
const reports = new Map<string, string>();

/** Writes a report with the CLI (cwd: the repository) and returns its file URL. */
async function report(name: string, args: string[]): Promise<string> {
  const file = path.join(scratch, `${name}.html`);
  const result = await run(["report", ...args, "--platform", "linux", "--html", file], ROOT);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return pathToFileURL(file).href;
}

interface Opened {
  page: Page;
  /** Fails the test when the page requested anything but its own file, logged an error (such as a CSP violation) or opened a dialog. */
  done(): Promise<void>;
}

async function open(url: string): Promise<Opened> {
  // A new context per page: nothing cached or stored is shared between tests.
  const context = await browser!.newContext({
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  context.on("request", (request) => requests.push(request.url()));
  page.on("websocket", (socket) => problems.push(`websocket ${socket.url()}`));
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning")
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("dialog", (dialog) => {
    problems.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(url, { waitUntil: "load" });
  return {
    page,
    async done() {
      // Let anything the page might still start (lazy loads, timers) show up before judging.
      await page.waitForTimeout(200);
      await context.close();
      expect(requests).toEqual([url]);
      expect(problems).toEqual([]);
    },
  };
}

const cell = (page: Page, window: string, plugin: string) =>
  page.locator(`#matrix-table tr[data-window="${window}"] td.cell[data-plugin="${plugin}"]`);

describeWithTool(
  "Chromium",
  HAS_CHROMIUM,
  `run scripts/ensure-tools.sh (apt-get install chromium, at ${CHROMIUM})`,
  "caplint report in headless Chromium",
  () => {
    beforeAll(async () => {
      // Local pages only, so the heat map holds the counts `access` gives for them; "split" covers every origin.
      reports.set(
        "app",
        await report("app", [
          "fixtures/queries/app",
          "--against",
          "fixtures/queries/app-v2",
          "--url",
          "local",
        ]),
      );
      reports.set("split", await report("split", ["--app", splitApp()]));
      reports.set("danger", await report("danger", ["--app", dangerousApp()]));
      reports.set("hostile", await report("hostile", ["--app", hostileApp()]));
      // launch() gives the browser a fresh temporary profile (user-data-dir) and removes it on close.
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-quic",
          "--no-first-run",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      cleanup();
      rmSync(scratch, { recursive: true, force: true });
    });

    it("shows the access counts of each window and plugin as a heat map", async () => {
      const { page, done } = await open(reports.get("app")!);
      const expected: Record<string, number> = {
        app: 8,
        dialog: 1,
        event: 4,
        fs: 2,
        image: 5,
        menu: 22,
        path: 8,
        resources: 1,
        tray: 12,
        webview: 4,
        window: 28,
        "": 1,
      };
      const columns = await page.locator("#matrix-table thead th.plugin span").allTextContents();
      expect(columns).toEqual([
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
        "total",
      ]);
      for (const window of ["main", "main-editor", "settings", "docs"]) {
        const counts = await page
          .locator(`#matrix-table tr[data-window="${window}"] td.cell`)
          .evaluateAll((cells) =>
            cells.map((td) => [
              td.getAttribute("data-plugin"),
              td.querySelector(".n")!.textContent,
            ]),
          );
        const callable = window.startsWith("main");
        expect(counts, window).toEqual(
          Object.entries(expected).map(([plugin, n]) => [plugin, callable ? String(n) : "·"]),
        );
        await expect
          .poll(() =>
            page.locator(`#matrix-table tr[data-window="${window}"] td.total`).textContent(),
          )
          .toBe(callable ? (window === "main" ? "96" : "96 +96") : "0");
      }
      // Colour follows the count: more commands, a darker cell; no access, the neutral grey.
      const background = (window: string, plugin: string) =>
        cell(page, window, plugin).evaluate((td) => getComputedStyle(td).backgroundColor);
      const luminance = (rgb: string) => {
        const [r, g, b] = rgb.match(/\d+/g)!.map(Number) as [number, number, number];
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const [none, one, four, twentyEight] = await Promise.all([
        background("settings", "fs"),
        background("main", "dialog"),
        background("main", "event"),
        background("main", "window"),
      ]);
      expect(luminance(one)).toBeLessThan(luminance(none));
      expect(luminance(four)).toBeLessThan(luminance(one));
      expect(luminance(twentyEight)).toBeLessThan(luminance(four));
      // Marks: denied commands, and access new since the baseline (main-editor is new in this version).
      await expect
        .poll(() => cell(page, "main", "window").locator(".mark-denied").textContent())
        .toBe("✖1");
      expect(await cell(page, "main-editor", "fs").locator(".mark-new").isVisible()).toBe(true);
      expect(await cell(page, "main-editor", "fs").locator(".mark-new").textContent()).toBe("+2");
      expect(await cell(page, "main", "fs").locator(".mark-new").count()).toBe(0);
      expect(await page.locator("#matrix-table td.cell.danger").count()).toBe(0);
      expect(await page.locator('[data-stat="callable"] .value').textContent()).toBe("96");
      expect(await page.locator('[data-meta="app"]').textContent()).toBe("fixtures/queries/app");
      await done();
    });

    it("a click on a cell shows its commands and the capability → permission chain behind each", async () => {
      const { page, done } = await open(reports.get("app")!);
      expect(await page.locator("#details-body .placeholder").isVisible()).toBe(true);
      await cell(page, "main", "fs").click();
      expect(await page.locator("#details-title").textContent()).toBe("main × fs");
      expect(await cell(page, "main", "fs").getAttribute("aria-pressed")).toBe("true");
      const rows = page.locator("#details-body tr.command");
      expect(
        await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-command"))),
      ).toEqual(["plugin:fs|read_file", "plugin:fs|write_text_file"]);
      const read = await rows.nth(0).innerText();
      expect(read).toContain("main › extra › fs:allow-read-file");
      expect(read).toContain("fixtures/queries/app/src-tauri/capabilities/main.json:4");
      const write = await rows.nth(1).innerText();
      expect(write).toContain("main › fs:allow-write-text-file");
      expect(write).toContain('allow {"path":"$APPDATA/notes/*"}');
      expect(await page.locator("#details-body .d-summary").innerText()).toContain(
        "2 callable commands",
      );
      expect(await page.locator("#details-body .d-via").innerText()).toBe(
        "Capabilities covering “main” from the app's own pages: main",
      );

      // Another cell replaces the panel; the keyboard works too.
      await cell(page, "main", "window").focus();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      expect(await page.locator("#details-title").textContent()).toBe("main-editor × window");
      expect(await cell(page, "main", "fs").getAttribute("aria-pressed")).toBe("false");
      expect(await page.locator("#details-body tr.command").count()).toBe(28);
      expect(await page.locator("#details-body tr.command.is-new").count()).toBe(28);
      const denied = page.locator(
        '#details-body .denied-list li[data-command="plugin:window|close"]',
      );
      expect(await denied.innerText()).toMatch(
        /denied by\s*lockdown › core:window:deny-close\s*fixtures\/queries\/app\/src-tauri\/capabilities\/lockdown\.json:8/,
      );
      expect(await denied.innerText()).toContain("main › core:window:allow-close");

      await cell(page, "docs", "event").click();
      expect(await page.locator("#details-body .empty").innerText()).toBe(
        "“docs” cannot call any event command from the app's own pages.",
      );

      // The app's own commands: "app commands", never "app commands command".
      await cell(page, "main", "").click();
      expect(await page.locator("#details-body .d-summary").innerText()).toContain(
        "1 callable command of 1 app command the capabilities mention",
      );
      await cell(page, "docs", "").click();
      expect(await page.locator("#details-body .empty").innerText()).toBe(
        "“docs” cannot call any app command from the app's own pages.",
      );
      await done();
    });

    it("lists the findings and the access new and removed since the baseline", async () => {
      const { page, done } = await open(reports.get("app")!);
      const findings = page.locator("#findings tr.finding");
      expect(
        await findings.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-rule"))),
      ).toEqual(["deny-applies-globally"]);
      expect(await findings.nth(0).innerText()).toContain(
        "fixtures/queries/app/src-tauri/capabilities/lockdown.json:8:5",
      );
      expect(await findings.nth(0).innerText()).toContain("warning");

      const added = page.locator("#diff .group.new");
      expect(await added.count()).toBe(1);
      expect(await added.getAttribute("data-pattern")).toBe("main-*");
      expect(await added.locator(".who").innerText()).toMatch(
        /NEW\s+window main-\* from local\s+reaches main-editor\s+96 commands/,
      );
      const chips = await added
        .locator(".chip")
        .evaluateAll((codes) => codes.map((c) => c.getAttribute("data-command")));
      expect(chips).toHaveLength(96);
      expect(chips).toEqual(
        expect.arrayContaining([
          "greet",
          "plugin:dialog|save",
          "plugin:fs|read_file",
          "plugin:fs|write_text_file",
          "plugin:window|title",
        ]),
      );
      expect(await page.locator("#diff-added").innerText()).toContain("96 command grants");
      // New access stands out from removed access.
      const look = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate(
            (el) => getComputedStyle(el).borderTopColor + getComputedStyle(el).backgroundImage,
          );
      expect(await look("#diff .group.new")).not.toBe(await look("#diff .group.removed"));
      const removed = page.locator("#diff .group.removed");
      expect(
        await removed.evaluateAll((groups) => groups.map((g) => g.getAttribute("data-context"))),
      ).toEqual(["https://partner.dev", "http://localhost:8080", "https://*.example.com"]);
      expect(await removed.nth(0).innerText()).toContain(
        "remote-docs › core:event:default (fixtures/queries/app-v2/src-tauri/capabilities/remote.json:15)",
      );

      if (process.env.CAPLINT_UPDATE_SCREENSHOT === "1") {
        await cell(page, "main-editor", "fs").click();
        await page.mouse.move(0, 0);
        const height = await page.evaluate(() =>
          Math.min(
            document.documentElement.scrollHeight,
            (document.getElementById("diff-removed")?.offsetTop ?? 1600) - 8,
          ),
        );
        await page.screenshot({
          path: SCREENSHOT,
          fullPage: true,
          clip: { x: 0, y: 0, width: 1280, height },
        });
      }
      await done();
    });

    it("marks dangerous grants in the matrix and explains them in the details", async () => {
      const { page, done } = await open(reports.get("danger")!);
      const marked = await page
        .locator("#matrix-table td.cell.danger")
        .evaluateAll((cells) =>
          cells.map(
            (td) =>
              `${td.closest("tr")!.getAttribute("data-window")} × ${td.getAttribute("data-plugin")}`,
          ),
        );
      expect(marked).toEqual(["main × fs", "main × shell", "viewer × fs"]);
      const fs = cell(page, "main", "fs");
      expect(await fs.locator(".mark-danger").isVisible()).toBe(true);
      expect(await fs.locator(".mark-danger").textContent()).toBe("⚠");
      // A red border: the inset ring in the danger colour.
      expect(await fs.evaluate((td) => getComputedStyle(td).boxShadow)).toContain(
        "rgb(217, 45, 32)",
      );
      expect(
        await cell(page, "main", "window").evaluate((td) => getComputedStyle(td).boxShadow),
      ).toBe("none");
      expect(await page.locator(".legend .key-danger").isVisible()).toBe(true);

      await fs.click();
      expect(
        await page
          .locator("#details-body tr.command.is-danger")
          .evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-command"))),
      ).toEqual(["plugin:fs|read_file", "plugin:fs|write", "plugin:fs|write_file"]);
      const box = await page.locator("#details-body .danger-box").innerText();
      expect(box).toContain('dangerous grant "fs:allow-write-file"');
      expect(box).toContain(
        'dangerous grant "fs:allow-read-file" (plugin:fs|read_file) with the scope of "fs:scope": a script in every window ("*")',
      );
      await done();
    });

    it("covers every origin by default: a window whose only (dangerous) grant is remote shows it, marked remote", async () => {
      const { page, done } = await open(reports.get("split")!);
      const docs = page.locator('#matrix-table tr[data-window="docs"]');
      expect(await docs.locator(".via").innerText()).toBe("via remote-shell");
      expect(await docs.locator("td.total").innerText()).toBe("1 R1 ⚠1");
      expect(await cell(page, "docs", "shell").locator(".mark-kind").textContent()).toBe("R");
      await cell(page, "docs", "shell").click();
      const row = page.locator('#details-body tr.command[data-command="plugin:shell|execute"]');
      expect(await row.innerText()).toContain("remote pages only");
      expect(await row.innerText()).toContain("remote https://docs.example.com");
      expect(await page.locator("#details-body .d-via").innerText()).toBe(
        "Capabilities covering “docs” from any origin (local pages and remote URLs): remote-shell",
      );
      expect(await page.locator('[data-meta="origin"]').textContent()).toBe(
        "every origin (local and remote)",
      );
      await done();
    });

    it("shows markup in labels, identifiers and messages as text and runs none of it", async () => {
      const { page, done } = await open(reports.get("hostile")!);
      expect(await page.title()).toBe(
        `Capability report: </script><script>alert("title")</script>`,
      );
      expect(await page.locator("#matrix-table th.window .label").allTextContents()).toEqual([
        HOSTILE_LABEL,
        "main",
      ]);
      expect(await page.locator("#matrix-table th.window .via").nth(1).textContent()).toBe(
        `via <img src=x onerror="alert('cap')">`,
      );
      expect(await page.locator("img").count()).toBe(0);
      expect(await page.locator("script").count()).toBe(2);
      await page.locator("#matrix-table tbody tr").nth(0).locator("td.cell").first().click();
      expect(await page.locator("#details-title .d-window").textContent()).toBe(HOSTILE_LABEL);
      await cell(page, "main", "window").click();
      expect(await page.locator("#details-body tr.command").first().innerText()).toContain(
        `<img src=x onerror="alert('cap')"> › core:window:allow-close`,
      );
      expect(
        await page.locator('#findings tr.finding[data-rule="invalid-label-pattern"]').innerText(),
      ).toContain(`window pattern "${HOSTILE_LABEL}"`);
      await done();
    });
  },
);
