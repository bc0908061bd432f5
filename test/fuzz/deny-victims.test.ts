import fc from "fast-check";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lint } from "../../src/capabilities/lint.js";
import { loadProject } from "../../src/capabilities/load/project.js";
import { params, timeoutFor } from "./support.js";

/**
 * deny-applies-globally finds the capabilities a deny blocks in two ways: a command few capabilities
 * deny has each deny compared with every allower, one many deny has its allowers indexed by reach
 * (windows, webviews, origins) so that a deny visits only the groups it may cover. A differential test
 * of what it reports against the rule's definition, judged pair by pair here; the generated apps take
 * mostly the first way, the second test the other.
 */

const COMMANDS = ["close", "minimize", "maximize"];
const WINDOWS = ["a", "b", "c"];
const WEBVIEWS = ["x", "y"];
const URLS = ["https://one.example", "https://two.example"];

interface Generated {
  windows: string[];
  webviews: string[];
  urls: string[];
  allows: string[];
  denies: string[];
}

/** Each item kept with probability `kept` in `draws` (a uniform pick from that many). */
const subset = <T>(items: readonly T[], kept: number, draws: number) =>
  fc
    .tuple(...items.map(() => fc.integer({ min: 1, max: draws })))
    .map((picks) => items.filter((_, i) => picks[i]! <= kept));

const generatedCapability = fc.record({
  windows: fc
    .tuple(subset(WINDOWS, 1, 2), fc.integer({ min: 1, max: 12 }))
    // Now and then "*" alone: a deny on every label is judged by its origins alone.
    .map(([windows, pick]) => (pick === 1 ? ["*"] : windows)),
  webviews: subset(WEBVIEWS, 1, 3),
  urls: subset(URLS, 1, 4),
  allows: subset(COMMANDS, 2, 3),
  denies: subset(COMMANDS, 1, 4),
});

const identifierOf = (index: number) => `c${String(index).padStart(3, "0")}`;

/** Whether a deny in `deny` leaves `allow` nothing it was not aimed at: every label and origin of it is the deny's. */
function covers(deny: Generated, allow: Generated): boolean {
  const everyLabel = deny.windows.includes("*") || deny.webviews.includes("*");
  if (!everyLabel) {
    if (!allow.windows.every((w) => deny.windows.includes(w))) return false;
    if (!allow.webviews.every((w) => deny.webviews.includes(w))) return false;
  }
  return allow.urls.every((url) => deny.urls.includes(url));
}

/** Per deny ("c003 close"), the identifiers it names and how many it blocks, by the definition. */
function expectedFindings(
  app: readonly Generated[],
): Map<string, { named: string[]; count: number }> {
  const expected = new Map<string, { named: string[]; count: number }>();
  app.forEach((deny, d) => {
    for (const command of deny.denies) {
      const victims = app
        .map((allow, a) => ({ allow, a }))
        .filter(({ allow, a }) => a !== d && allow.allows.includes(command) && !covers(deny, allow))
        .map(({ a }) => identifierOf(a));
      if (victims.length > 0)
        expected.set(`${identifierOf(d)} ${command}`, {
          named: victims.slice(0, 3),
          count: victims.length,
        });
    }
  });
  return expected;
}

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** What the rule reports, read back from its messages in the same form. */
async function reported(app: readonly Generated[]) {
  const folder = mkdtempSync(path.join(tmpdir(), "caplint-deny-victims-"));
  folders.push(folder);
  const file = path.join(folder, "capabilities.json");
  const capabilities = app.map((generated, index) => ({
    identifier: identifierOf(index),
    windows: generated.windows,
    ...(generated.webviews.length > 0 ? { webviews: generated.webviews } : {}),
    ...(generated.urls.length > 0 ? { remote: { urls: generated.urls } } : {}),
    permissions: [
      ...generated.allows.map((command) => `core:window:allow-${command}`),
      ...generated.denies.map((command) => `core:window:deny-${command}`),
    ],
  }));
  writeFileSync(file, JSON.stringify(capabilities));
  const project = await loadProject({ cwd: folder, paths: [file] });
  const { diagnostics } = await lint(project, {
    severityFor: (id) => (id === "deny-applies-globally" ? undefined : "off"),
    only: new Set(["deny-applies-globally"]),
  });
  const found = new Map<string, { named: string[]; count: number }>();
  for (const diagnostic of diagnostics) {
    expect(diagnostic.ruleId).toBe("deny-applies-globally");
    const head = /^deny of plugin:window\|(\w+) in capability "(c\d{3})"/.exec(diagnostic.message);
    expect(head, diagnostic.message).not.toBeNull();
    const others = diagnostic.message.slice(
      diagnostic.message.indexOf(" also blocks it for "),
      diagnostic.message.lastIndexOf(": "),
    );
    const named = [...others.matchAll(/"(c\d{3})" \(/g)].map((match) => match[1]!);
    const more = /and (\d+) more$/.exec(others);
    found.set(`${head![2]} ${head![1]}`, {
      named,
      count: named.length + (more ? Number(more[1]) : 0),
    });
  }
  return found;
}

describe("deny-applies-globally's victims", () => {
  it(
    "are the allowers a deny does not cover, the first three named, however the rule finds them",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(generatedCapability, { minLength: 2, maxLength: 40 }),
          async (app) => {
            expect(Object.fromEntries(await reported(app))).toEqual(
              Object.fromEntries(expectedFindings(app)),
            );
          },
        ),
        params(701),
      );
    },
    timeoutFor(200),
  );

  it("holds a command denied by more capabilities than the rule judges one by one", async () => {
    // Twelve capabilities deny "close": the allowers' reach index, not the scan.
    const app: Generated[] = Array.from({ length: 24 }, (_, i) => ({
      windows: [WINDOWS[i % 3]!],
      webviews: i % 5 === 0 ? ["x"] : [],
      urls: i % 7 === 0 ? [URLS[0]!] : [],
      allows: ["close"],
      denies: i % 2 === 0 ? ["close"] : [],
    }));
    const expected = expectedFindings(app);
    expect(expected.size).toBeGreaterThan(8);
    expect(Object.fromEntries(await reported(app))).toEqual(Object.fromEntries(expected));
  });
});
