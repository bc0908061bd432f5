/**
 * Generators for the hostile-repository classes of docs/security.md: control characters anywhere
 * (values, keys, file names), symbolic links in and out of the project, and the size classes around
 * their bounds. Each property states the guarantee, not one reproduction. `npm test` runs few cases
 * (FUZZ_RUNS small by default); `npm run fuzz` runs thousands.
 */
import fc from "fast-check";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/capabilities/model/limits.js";
import { inTempDir, params, RUNS, timedRun, timeoutFor } from "./support.js";

const RAW_CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** One character a terminal acts on, or that reorders or breaks lines. */
const controlChar = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0x7f, max: 0x9f }).map((code) => String.fromCharCode(code)),
  fc.constantFrom(
    "\u061c",
    "\u200e",
    "\u200f",
    "\u2028",
    "\u2029",
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
  ),
  fc.constantFrom(
    "\u001b]52;c;ZXZpbA==\u0007",
    "\u001b]0;title\u001b\\",
    "\u001b[2J",
    "\u001b[31m",
    "\r",
    "\n::error::x",
  ),
);

/** A short string with control characters mixed into ordinary text. */
const hostileText = fc
  .array(
    fc.oneof(controlChar, fc.constantFrom("a", "main", "core:", "default", "-", "é", "\ufffd")),
    { minLength: 1, maxLength: 6 },
  )
  .map((parts) => parts.join(""));

/** A file name: no slash or NUL (the file system refuses them), otherwise anything. */
const hostileName = hostileText.map((text) => `${text.replace(/[\u0000/]/g, "_")}.json`);

describe("fuzz: control characters never reach the terminal raw", () => {
  it(
    "in values, keys and file names, for every text format; JSON keeps them exactly",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          hostileText,
          hostileText,
          hostileText,
          hostileName,
          async (identifier, label, permission, name) =>
            inTempDir("controls", async (dir) => {
              writeFileSync(
                path.join(dir, name),
                JSON.stringify({
                  identifier,
                  windows: [label],
                  permissions: [permission, `core:${permission}`],
                  [label]: 1,
                }),
              );
              for (const format of ["stylish", "compact", "github"]) {
                const result = await timedRun(["check", "--format", format, `./${name}`], dir);
                expect(result.stdout + result.stderr, format).not.toMatch(RAW_CONTROL);
              }
              const json = await timedRun(["check", "--format", "json", `./${name}`], dir);
              const data = JSON.parse(json.stdout) as {
                diagnostics: Array<{ file: string; message: string }>;
              };
              for (const d of data.diagnostics) expect(d.file).toBe(name);
              const who = await timedRun(["who-can", permission, `./${name}`], dir);
              expect(who.stdout + who.stderr).not.toMatch(RAW_CONTROL);
            }),
        ),
        params(9101),
      );
    },
    timeoutFor(200),
  );
});

describe("fuzz: symbolic links", () => {
  /** Where a link in the capabilities folder points: inside the app, outside it, nowhere, or at itself. */
  const linkTarget = fc.constantFrom(
    "inside-file",
    "inside-folder",
    "outside-file",
    "outside-folder",
    "missing",
    "self",
    "parent",
  );

  it(
    "a link leaving the app is reported and never read; links inside are followed",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.tuple(linkTarget, fc.constantFrom("x.json", "y.toml", "sub", "deep/z.json")),
            { minLength: 1, maxLength: 5 },
          ),
          async (links) =>
            inTempDir("links", async (root) => {
              const outside = path.join(root, "outside");
              mkdirSync(path.join(outside, "folder"), { recursive: true });
              writeFileSync(
                path.join(outside, "secret.json"),
                '{"identifier": "SECRET_VALUE", "windows": ["main"], "permissions": ["fs:allow-read-file"]}',
              );
              writeFileSync(
                path.join(outside, "folder", "f.json"),
                '{"identifier": "SECRET_FOLDER", "windows": ["main"], "permissions": []}',
              );
              const caps = path.join(root, "app", "src-tauri", "capabilities");
              mkdirSync(path.join(caps, "deep"), { recursive: true });
              writeFileSync(
                path.join(caps, "main.json"),
                '{"identifier": "main", "windows": ["main"], "permissions": ["core:default"]}',
              );
              let outsideLinks = 0;
              links.forEach(([target, where], index) => {
                const link = path.join(caps, `${index}-${where}`.replace("/", "-"));
                const destination = {
                  "inside-file": path.join(caps, "main.json"),
                  "inside-folder": path.join(caps, "deep"),
                  "outside-file": path.join(outside, "secret.json"),
                  "outside-folder": path.join(outside, "folder"),
                  missing: path.join(root, "nowhere.json"),
                  self: link,
                  parent: root,
                }[target];
                symlinkSync(destination, link);
                if (target === "outside-file" && /\.(json|toml)$/.test(link)) outsideLinks++;
                if (target === "outside-folder" || target === "parent") outsideLinks++;
              });
              const result = await timedRun(["check", "--format", "compact", "--app", "app"], root);
              expect(result.stdout).not.toContain("SECRET_VALUE");
              expect(result.stdout).not.toContain("SECRET_FOLDER");
              expect(result.stderr).toBe("");
              expect(
                result.stdout
                  .split("\n")
                  .filter((line) => line.includes("symbolic link leading out of the project"))
                  .length,
              ).toBe(outsideLinks);
              expect(readFileSync(path.join(outside, "secret.json"), "utf8")).toContain(
                "SECRET_VALUE",
              );
            }),
        ),
        params(9102),
      );
    },
    timeoutFor(200),
  );
});

describe("fuzz: size classes around their bounds", () => {
  it(
    "a list over its bound is one finding at the list; at or under it, none",
    async () => {
      const list = fc.constantFrom<"remote.urls" | "windows" | "webviews" | "permissions">(
        "remote.urls",
        "windows",
        "webviews",
        "permissions",
      );
      await fc.assert(
        fc.asyncProperty(list, fc.integer({ min: -3, max: 3 }), async (field, offset) =>
          inTempDir("sizes", async (dir) => {
            const limit =
              field === "remote.urls"
                ? LIMITS.remoteUrls
                : field === "permissions"
                  ? LIMITS.permissions
                  : LIMITS.labels;
            const count = limit + offset;
            const values = Array.from({ length: count }, (_, i) =>
              field === "remote.urls"
                ? `https://h${i}.example.com`
                : field === "permissions"
                  ? "core:default"
                  : `w${i}`,
            );
            const capability: Record<string, unknown> = {
              identifier: "main",
              windows: ["main"],
              permissions: ["core:default"],
            };
            if (field === "remote.urls") capability.remote = { urls: values };
            else capability[field] = values;
            writeFileSync(path.join(dir, "cap.json"), JSON.stringify(capability));
            const result = await timedRun(
              ["check", "--format", "compact", "--only", "invalid-identifier", "cap.json"],
              dir,
            );
            const over = result.stdout
              .split("\n")
              .filter((line) => line.includes("over the limit"));
            expect(over.length).toBe(count > limit ? 1 : 0);
            if (count > limit)
              expect(over[0]).toContain(`${field} lists ${count.toLocaleString("en-US")} entries`);
          }),
        ),
        { ...params(9103), numRuns: Math.min(RUNS, 12) },
      );
    },
    timeoutFor(3_000),
  );
});
