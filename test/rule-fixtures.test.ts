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
import { isPlaceholderName, placeholdersOf } from "../src/core/messages.js";
import { DOMAINS, RULES } from "../src/registry.js";
import { expectedOutput, type JsonFinding } from "./helpers/expected-output.js";
import { FIXTURES, ROOT, run, type RunResult } from "./helpers/run.js";

/**
 * The one fixture runner of every rule of every kind of input (actionlint's testdata, Biome's
 * `tests/specs/<group>/<rule>/{valid,invalid}`), one layout for all: `fixtures/<kind>/<rule-id>/`
 * holds only
 * - `valid/<case>` (a file, or a folder holding an app): the kind's lint command
 *   (`caplint check`, `caplint events`, `caplint mcp`) gives no finding at all;
 * - `invalid/<case>`: exactly the findings of that rule listed in `<case>.out`: the compact line
 *   `file:line:col: severity message [rule-id]`, with paths relative to the `invalid/` folder, followed
 *   by `  help: <hint>` when the finding has a hint (the "how to fix" half of a finding is expected
 *   output too);
 * - optional `<case>.args`: extra arguments, one per line (`--platform`, `--rule`, `--client`);
 * - optional `<case>.fixed.json` (`.fixed.toml` for a TOML case): the file after `--fix`, which no longer
 *   gives that rule's fixable findings and which a second `--fix` leaves alone. Every fixable rule has one.
 * Every case runs through `main()` in-process; the quick loop on one rule's corners is
 * `testRule` (test/helpers/rule-tester.ts).
 */
const CASE = /\.(json|jsonl|toml|json5|txt)$/;
const FIXED = /\.fixed\.(json|toml)$/;

/** Folders under `fixtures/<kind>/` that hold no rule's cases: servers, dumps and configs other tests use. */
const NON_RULE_FOLDERS: Readonly<Record<string, readonly string[]>> = {
  mcp: ["clients", "dumps", "real"],
};

/** Rules with no fixture folder, with the reason and where they are tested instead. */
const WITHOUT_FIXTURES: Readonly<Record<string, readonly string[]>> = {
  // `parse` is the capabilities' pipeline step too (fixtures/capabilities/parse); an unreadable
  // listing is tested in test/mcp/cli.test.ts. A server that does not start needs a live process:
  // test/integrations/mcp/servers.test.ts.
  mcp: ["parse", "mcp-server-start"],
};

/**
 * Messages a fixture cannot reach, with the reason (every other declared message must be produced
 * by some invalid fixture of its kind, so no template goes untested).
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
  // A line of more than 64 MiB: test/events/validator.test.ts "a line too long to read"; bytes that are
  // not UTF-8 never reach the validator as text (test/shipped/events-cli.test.ts "bytes that are not UTF-8").
  "event-json": ["lineTooLong", "invalidUtf8"],
  // Past the memory bounds (test/performance/events-bounds.test.ts): an id reused after its details
  // were forgotten, and the bounds themselves.
  "tool-lifecycle": ["startAfterEarlierEnd", "memoryLimit"],
  "turn-order": ["memoryLimit"],
};

function cases(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter(
      (name) =>
        !FIXED.test(name) && (CASE.test(name) || statSync(path.join(dir, name)).isDirectory()),
    )
    .sort();
}

function caseName(name: string): string {
  return name.replace(CASE, "");
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

/** The command line that lints a case: `check --format compact --app case`, `events case.jsonl`, … */
function argv(command: string, dir: string, name: string, ...options: string[]): string[] {
  const isApp = statSync(path.join(dir, name)).isDirectory();
  return [command, ...options, ...(isApp ? ["--app", name] : [name]), ...extraArgs(dir, name)];
}

/** The sub-folders of a fixture folder (none when it does not exist). */
function subfolders(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
    : [];
}

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

/** The rules of a kind that have fixtures. */
function rulesWithFixtures(domain: (typeof DOMAINS)[number]) {
  return domain.rules.filter((rule) => !(WITHOUT_FIXTURES[domain.name] ?? []).includes(rule.id));
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

  it("fixtures/ holds a folder per kind of input, beside the folders of other tests", () => {
    for (const domain of DOMAINS)
      expect(existsSync(path.join(FIXTURES, domain.name)), `fixtures/${domain.name}`).toBe(true);
  });

  for (const domain of DOMAINS) {
    it(`every folder under fixtures/${domain.name}/ is a rule of ${domain.name} holding only valid/ and invalid/`, () => {
      const base = path.join(FIXTURES, domain.name);
      const ids = new Set<string>(domain.rules.map((rule) => rule.id));
      const folders = subfolders(base);
      expect(
        folders.filter(
          (name) => !ids.has(name) && !(NON_RULE_FOLDERS[domain.name] ?? []).includes(name),
        ),
        `folders under fixtures/${domain.name} without a rule`,
      ).toEqual([]);
      for (const name of folders.filter((n) => ids.has(n))) {
        const extra = readdirSync(path.join(base, name)).filter(
          (entry) => entry !== "valid" && entry !== "invalid",
        );
        expect(extra, `fixtures/${domain.name}/${name} holds only valid/ and invalid/`).toEqual([]);
      }
    });
  }
});

describe("the rule registry and docs/rules", () => {
  it("every rule of every domain has its page, and every page is a registered rule", () => {
    const pages = readdirSync(path.join(ROOT, "docs", "rules"))
      .filter((name) => name.endsWith(".md") && name !== "README.md")
      .map((name) => name.slice(0, -3));
    expect(pages.sort()).toEqual([...new Set(RULES.map((rule) => rule.id))].sort());
  });
});

/**
 * One run per invalid case, whichever test asks first: the case's own test, or the message coverage
 * test below, which runs every case itself (so it checks all of them under -t or any test order).
 */
const invalidRuns = new Map<string, Promise<RunResult>>();
function runInvalidCase(command: string, invalidDir: string, name: string): Promise<RunResult> {
  const key = path.join(invalidDir, name);
  let result = invalidRuns.get(key);
  if (!result)
    invalidRuns.set(
      key,
      (result = run(argv(command, invalidDir, name, "--format", "json"), invalidDir)),
    );
  return result;
}

for (const domain of DOMAINS) {
  const command = domain.lintCommand;
  for (const rule of rulesWithFixtures(domain)) {
    describe(`${domain.name} rule ${rule.id}`, () => {
      const base = path.join(FIXTURES, domain.name, rule.id);
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
          ? readdirSync(invalidDir).filter((n) => FIXED.test(n))
          : [];
        expect(
          fixedCases.length > 0,
          `fixable: ${rule.fixable}, .fixed cases: ${fixedCases.length}`,
        ).toBe(rule.fixable);
      });

      for (const name of cases(validDir)) {
        it(`valid/${name} is clean`, async () => {
          const result = await run(argv(command, validDir, name, "--format", "compact"), validDir);
          expect(result.stderr).toBe("");
          expect(result.stdout).toBe("");
          expect(result.code).toBe(0);
        });
      }

      for (const name of cases(invalidDir)) {
        it(`invalid/${name} reports what ${caseName(name)}.out lists`, async () => {
          const result = await runInvalidCase(command, invalidDir, name);
          expect(result.stderr).toBe("");
          const all = (JSON.parse(result.stdout) as { diagnostics: JsonFinding[] }).diagnostics;
          const mine = all.filter((d) => d.ruleId === rule.id);
          expect(mine.length, "the rule fires").toBeGreaterThan(0);
          for (const d of all) {
            expect(
              Object.keys(domain.rules.find((r) => r.id === d.ruleId)!.messages),
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
            const args = extraArgs(invalidDir, name);
            const first = await run([command, "--fix", "--format", "json", name, ...args], dir);
            expect(first.stderr).toBe("");
            expect(readFileSync(path.join(dir, name), "utf8")).toBe(readFileSync(fixed, "utf8"));
            const left = (
              JSON.parse(first.stdout) as { diagnostics: JsonFinding[] }
            ).diagnostics.filter((d) => d.ruleId === rule.id && d.fixable);
            expect(left, "no fixable finding of the rule is left").toEqual([]);
            await run([command, "--fix", "--format", "compact", name, ...args], dir);
            expect(readFileSync(path.join(dir, name), "utf8")).toBe(readFileSync(fixed, "utf8"));
          });
        }
      }
    });
  }
}

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

  for (const domain of DOMAINS) {
    it(`every message a ${domain.name} rule declares is produced by one of its invalid fixtures`, async () => {
      const reportedMessages = new Map<string, Set<string>>();
      const rules = rulesWithFixtures(domain);
      for (const rule of rules) {
        const invalidDir = path.join(FIXTURES, domain.name, rule.id, "invalid");
        for (const name of cases(invalidDir)) {
          const { stdout } = await runInvalidCase(domain.lintCommand, invalidDir, name);
          for (const d of (JSON.parse(stdout) as { diagnostics: JsonFinding[] }).diagnostics)
            reportedMessages.set(
              d.ruleId,
              (reportedMessages.get(d.ruleId) ?? new Set()).add(d.messageId!),
            );
        }
      }
      const unreached: Record<string, string[]> = {};
      for (const rule of rules) {
        const missing = Object.keys(rule.messages).filter(
          (id) =>
            !reportedMessages.get(rule.id)?.has(id) &&
            !(UNREACHED_MESSAGES[rule.id] ?? []).includes(id),
        );
        if (missing.length) unreached[rule.id] = missing;
      }
      expect(rules.length, `${domain.name} has rules with fixtures`).toBeGreaterThan(0);
      expect(unreached, "messages no invalid fixture produces").toEqual({});
    });
  }
});
