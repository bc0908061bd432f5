import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isPlaceholderName, placeholdersOf } from "../../../src/core/messages.js";
import { RULES } from "../../../src/registry.js";
import { expectedOutput, type JsonFinding } from "../../helpers/expected-output.js";
import { FIXTURES, ROOT, run, type RunResult } from "../../helpers/run.js";

/**
 * Fixture-driven rule tests (actionlint style):
 * - `fixtures/<rule-id>/valid/<case>` (a file, or a folder holding an app) must produce no finding at all;
 * - `fixtures/<rule-id>/invalid/<case>` must produce exactly the findings of that rule listed in
 *   `<case>.out`: the compact line `file:line:col: severity message [rule-id]`, with paths relative to
 *   the `invalid/` folder, followed by `  help: <hint>` when the finding has a hint (the hint is the
 *   "how to fix" half of a finding, so it is expected output too);
 * - optional `<case>.args` holds extra CLI arguments, one per line (e.g. `--platform` or `--rule`);
 * - optional `<case>.fixed.json` (`.fixed.toml` for a TOML case) is the file after `--fix`: it must no longer produce that rule's
 *   findings, and a second `--fix` must change nothing. Every fixable rule needs one.
 * These are the capability rules; the other domains run their fixtures in test/<domain>/.
 */
const CASE = /\.(json|jsonl|toml|json5|txt)$/;

function cases(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter(
      (name) =>
        !name.endsWith(".out") &&
        !name.endsWith(".args") &&
        !/\.fixed\.(json|toml)$/.test(name) &&
        (CASE.test(name) || statSync(path.join(dir, name)).isDirectory()),
    )
    .sort();
}

function extraArgs(dir: string, name: string): string[] {
  const file = path.join(dir, `${caseName(name)}.args`);
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
    : [];
}

function caseName(name: string): string {
  return name.replace(CASE, "");
}

/** The command line that checks a case with some options: `check --format compact --app case`. */
function argv(dir: string, name: string, ...options: string[]): string[] {
  const isApp = statSync(path.join(dir, name)).isDirectory();
  return ["check", ...options, ...(isApp ? ["--app", name] : [name]), ...extraArgs(dir, name)];
}

/** Fixture folders that hold no rule's cases (CLI, queries, integrations, corpora). */
const NON_RULE_FIXTURES = [
  "cli",
  "conformance",
  "events",
  "integrations",
  "js-api-map",
  "mcp",
  "queries",
  "real-world",
  "real-world-samples",
  "sarif",
  "spelling",
  "versions",
];

/** Every `.ts` file under src/ inside a folder named `rules`, at any depth (one per domain). */
function ruleFolderFiles(dir = path.join(ROOT, "src")): string[] {
  const found: string[] = [];
  const walk = (folder: string, inRules: boolean) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full, inRules || entry.name === "rules");
      else if (inRules && entry.name.endsWith(".ts")) found.push(full);
    }
  };
  walk(dir, false);
  return found.sort();
}

/** The rule ids a source file defines with `defineRule({ id: "…" })` (or `defineMcpRule`, `definePipelineStep`, `defineLineRule`). */
function definedRuleIds(file: string): string[] {
  return [
    ...readFileSync(file, "utf8").matchAll(
      /define(?:Rule|McpRule|PipelineStep|LineRule)\(\s*\{\s*id:\s*"([^"]+)"/g,
    ),
  ].map((m) => m[1]!);
}

/** The sub-folders of a fixture folder (none when it does not exist). */
function subfolders(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
    : [];
}

/** ESLint's checkRuleFiles: start from the files, so nothing unregistered or orphaned passes silently. */
describe("rule files, registry and fixture folders agree", () => {
  // The rules of every domain live one per file in its rules folder (src/<domain>/rules/<id>.ts).
  const registered = new Set<string>(RULES.map((rule) => rule.id));

  it("every rule defined in a rules folder is registered", () => {
    const files = ruleFolderFiles();
    expect(files.length).toBeGreaterThan(0);
    const defined = files.flatMap((file) =>
      definedRuleIds(file).map((id) => ({ id, file: path.relative(ROOT, file) })),
    );
    for (const file of files) {
      if (
        /define(Rule|McpRule|PipelineStep|LineRule)\(/.test(readFileSync(file, "utf8")) &&
        !file.endsWith("types.ts")
      ) {
        expect(
          definedRuleIds(file).length,
          `${path.relative(ROOT, file)} calls defineRule but no id "…" follows it`,
        ).toBeGreaterThan(0);
      }
    }
    expect(
      defined.filter((d) => !registered.has(d.id)),
      "defined but not in the registry",
    ).toEqual([]);
    expect(
      [...registered].filter((id) => !defined.some((d) => d.id === id)),
      "registered but defined in no rules folder",
    ).toEqual([]);
  });

  it("every rule has its own file, named after its id, in its domain's rules folder", () => {
    const misplaced: string[] = [];
    for (const file of ruleFolderFiles()) {
      const ids = definedRuleIds(file);
      const where = path.relative(ROOT, file);
      if (ids.length > 1) misplaced.push(`${where} defines ${ids.join(", ")}`);
      else if (ids.length === 1 && path.basename(file, ".ts") !== ids[0])
        misplaced.push(`${where} defines ${ids[0]}`);
      else if (ids.length === 1) {
        const rule = RULES.find((r) => r.id === ids[0]);
        if (rule && !where.startsWith(`src/${rule.domain}/rules/`))
          misplaced.push(`${where} defines ${rule.id} of ${rule.domain}`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it("every fixture folder belongs to a registered rule (or is a known non-rule folder)", () => {
    const rulesFolder = path.join(FIXTURES, "rules");
    const base = existsSync(rulesFolder) ? rulesFolder : FIXTURES;
    const folders = subfolders(base);
    const capabilityRules = new Set<string>(
      RULES.filter((rule) => rule.domain === "capabilities").map((rule) => rule.id),
    );
    const orphans = folders.filter(
      (name) =>
        !capabilityRules.has(name) && (base === rulesFolder || !NON_RULE_FIXTURES.includes(name)),
    );
    expect(orphans, `fixture folders under ${path.relative(ROOT, base)} without a rule`).toEqual(
      [],
    );
    for (const name of folders.filter((n) => capabilityRules.has(n))) {
      const extra = readdirSync(path.join(base, name)).filter(
        (entry) => entry !== "valid" && entry !== "invalid",
      );
      expect(extra, `fixtures for ${name} hold only valid/ and invalid/`).toEqual([]);
    }
  });

  it("every fixture folder of the other domains (fixtures/<domain>/{valid,invalid}/<rule-id>) belongs to a rule of that domain", () => {
    for (const domain of ["events", "mcp"] as const) {
      const ids = new Set<string>(
        RULES.filter((rule) => rule.domain === domain).map((rule) => rule.id),
      );
      for (const kind of ["valid", "invalid"]) {
        const folder = path.join(FIXTURES, domain, kind);
        expect(
          subfolders(folder).filter((name) => !ids.has(name)),
          `folders under ${path.relative(ROOT, folder)} without a ${domain} rule`,
        ).toEqual([]);
      }
    }
  });
});

describe("the rule registry and docs/rules", () => {
  it("every rule of every domain has its page, and every page is a registered rule", () => {
    const pages = readdirSync(path.join(ROOT, "docs", "rules"))
      .filter((name) => name.endsWith(".md") && name !== "README.md")
      .map((name) => name.slice(0, -3));
    expect(pages.sort()).toEqual(RULES.map((rule) => rule.id).sort());
  });
});

/**
 * One run per invalid case, whichever test asks first: the case's own test, or the message coverage
 * test below, which runs every case itself (so it checks all of them under -t or any test order).
 */
const invalidRuns = new Map<string, Promise<RunResult>>();
function runInvalidCase(invalidDir: string, name: string): Promise<RunResult> {
  const key = path.join(invalidDir, name);
  let result = invalidRuns.get(key);
  if (!result)
    invalidRuns.set(key, (result = run(argv(invalidDir, name, "--format", "json"), invalidDir)));
  return result;
}

for (const rule of RULES.filter((r) => r.domain === "capabilities")) {
  describe(`rule ${rule.id}`, () => {
    const base = path.join(FIXTURES, rule.id);
    const validDir = path.join(base, "valid");
    const invalidDir = path.join(base, "invalid");

    it("has docs, a valid and an invalid fixture", () => {
      expect(
        existsSync(path.join(ROOT, "docs", "rules", `${rule.id}.md`)),
        `docs/rules/${rule.id}.md`,
      ).toBe(true);
      expect(cases(validDir).length, `${validDir} has cases`).toBeGreaterThan(0);
      expect(cases(invalidDir).length, `${invalidDir} has cases`).toBeGreaterThan(0);
      const fixedCases = existsSync(invalidDir)
        ? readdirSync(invalidDir).filter((n) => n.endsWith(".fixed.json"))
        : [];
      expect(
        fixedCases.length > 0,
        `fixable: ${rule.fixable}, .fixed.json cases: ${fixedCases.length}`,
      ).toBe(rule.fixable);
    });

    for (const name of cases(validDir)) {
      it(`valid/${name} is clean`, async () => {
        const result = await run(argv(validDir, name, "--format", "compact"), validDir);
        expect(result.stderr).toBe("");
        expect(result.stdout).toBe("");
        expect(result.code).toBe(0);
      });
    }

    for (const name of cases(invalidDir)) {
      it(`invalid/${name} reports what ${caseName(name)}.out lists`, async () => {
        const result = await runInvalidCase(invalidDir, name);
        expect(result.stderr).toBe("");
        const all = (JSON.parse(result.stdout) as { diagnostics: JsonFinding[] }).diagnostics;
        const mine = all.filter((d) => d.ruleId === rule.id);
        expect(mine.length, "the rule fires").toBeGreaterThan(0);
        for (const d of all) {
          expect(
            Object.keys(RULES.find((r) => r.id === d.ruleId)!.messages),
            `${d.ruleId} reported messageId ${d.messageId}`,
          ).toContain(d.messageId);
        }
        await expect(expectedOutput(mine)).toMatchFileSnapshot(
          path.join(invalidDir, `${caseName(name)}.out`),
        );
        expect(result.code).toBe(all.some((d) => d.severity === "error") ? 1 : 0);
      });

      const fixed = path.join(
        invalidDir,
        `${caseName(name)}.fixed${name.endsWith(".toml") ? ".toml" : ".json"}`,
      );
      if (existsSync(fixed)) {
        it(`invalid/${name} --fix gives ${path.basename(fixed)}, clean of the rule and stable`, async () => {
          const dir = mkdtempSync(path.join(tmpdir(), `caplint-fix-${rule.id}-`));
          copyFileSync(path.join(invalidDir, name), path.join(dir, name));
          const first = await run(
            ["check", "--fix", "--format", "json", name, ...extraArgs(invalidDir, name)],
            dir,
          );
          expect(first.stderr).toBe("");
          expect(readFileSync(path.join(dir, name), "utf8")).toBe(readFileSync(fixed, "utf8"));
          const left = JSON.parse(first.stdout).diagnostics.filter(
            (d: { ruleId: string; fixable: boolean }) => d.ruleId === rule.id && d.fixable,
          );
          expect(left, "no fixable finding of the rule is left").toEqual([]);
          await run(
            ["check", "--fix", "--format", "compact", name, ...extraArgs(invalidDir, name)],
            dir,
          );
          expect(readFileSync(path.join(dir, name), "utf8")).toBe(readFileSync(fixed, "utf8"));
        });
      }
    }
  });
}

/**
 * Messages a fixture cannot reach, with the reason (every other declared message must be produced
 * by some invalid fixture, so no template goes untested).
 */
const UNREACHED_MESSAGES: Readonly<Record<string, readonly string[]>> = {
  // A symbolic link out of the repository cannot be committed as a fixture: test/capabilities/load/repository.test.ts makes one.
  "ignored-file": ["outsideLink"],
  // Needs a set that expands past the engine's limit (a generated manifest): test/capabilities/engine/resolve.test.ts.
  "set-cycle": ["tooLarge"],
  // Needs a Cargo.lock pinning old releases: test/shipped/versions.test.ts checks both messageIds on fixtures/versions.
  "unknown-permission": ["notYetAdded", "removed"],
  // Needs 50,000,000 characters of patterns and labels: test/performance/capability-size.test.ts reaches it.
  "unmatched-window": ["budget"],
};

describe("rule messages (meta.messages)", () => {
  it("every rule of every domain declares its messages", () => {
    for (const rule of RULES)
      expect(Object.keys(rule.messages).length, `${rule.domain} rule ${rule.id}`).toBeGreaterThan(
        0,
      );
  });

  it("every template's placeholders are plain names", () => {
    for (const rule of RULES) {
      for (const [id, template] of Object.entries(rule.messages)) {
        for (const name of placeholdersOf(template))
          expect(isPlaceholderName(name), `${rule.id}.${id}: {{${name}}}`).toBe(true);
      }
    }
  });

  it("every message a capability rule declares is produced by one of its invalid fixtures", async () => {
    const reportedMessages = new Map<string, Set<string>>();
    for (const rule of RULES.filter((r) => r.domain === "capabilities")) {
      const invalidDir = path.join(FIXTURES, rule.id, "invalid");
      for (const name of cases(invalidDir)) {
        const { stdout } = await runInvalidCase(invalidDir, name);
        for (const d of (JSON.parse(stdout) as { diagnostics: JsonFinding[] }).diagnostics)
          reportedMessages.set(
            d.ruleId,
            (reportedMessages.get(d.ruleId) ?? new Set()).add(d.messageId!),
          );
      }
    }
    const unreached: Record<string, string[]> = {};
    for (const rule of RULES.filter((r) => r.domain === "capabilities")) {
      const declared = Object.keys(rule.messages);
      expect(declared.length, `${rule.id} declares meta.messages`).toBeGreaterThan(0);
      const missing = declared.filter(
        (id) =>
          !reportedMessages.get(rule.id)?.has(id) &&
          !(UNREACHED_MESSAGES[rule.id] ?? []).includes(id),
      );
      if (missing.length) unreached[rule.id] = missing;
    }
    expect(unreached, "messages no invalid fixture produces").toEqual({});
  });
});
