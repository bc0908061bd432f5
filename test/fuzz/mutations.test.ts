/**
 * Property 2: mutations of real capability files. The seeds are the capability files of the rule
 * fixtures (`fixtures/capabilities/<rule>/{valid,invalid}`), the apps among them and `fixtures/queries/app`, and the
 * real-world samples in `fixtures/real-world-samples`. A case applies structural mutations (drop a
 * field, change a type, rename a permission, duplicate an entry, add platforms …) and then byte-level
 * ones (delete, insert, swap, duplicate, truncate), writes the result into a temporary copy and checks:
 *
 * - `check` never throws, exits 0 or 1, and its JSON report is well formed;
 * - it is deterministic: a second run prints byte-identical output (json and stylish);
 * - `--fix-dry-run` writes nothing;
 * - `--fix` never breaks a file that parsed, never touches TOML or unparsable files, reports what a
 *   fresh check of the written files reports, leaves no fixable finding of a rule whose fixes it
 *   applied, and a second `--fix` changes nothing.
 */
import fc from "fast-check";
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../helpers/run.js";
import {
  KNOWN_PERMISSIONS,
  NASTY_STRINGS,
  PLATFORM_VALUES,
  RENAMES,
  RULE_IDS,
} from "./arbitraries.js";
import {
  expectCheckReport,
  inTempDir,
  params,
  RUNS,
  SEED,
  timedRun,
  timeoutFor,
  type JsonReport,
} from "./support.js";

// ---------------------------------------------------------------------------------------------
// Seeds

interface Seed {
  /** `file` for a lone capability file, `app` for a file inside a copied app folder. */
  kind: "file" | "app";
  /** For apps: the app folder to copy and the extra arguments of its `.args` file. */
  appDir?: string;
  args: string[];
  /** The file to mutate: absolute path of the original, and its path in the case folder. */
  source: string;
  relative: string;
}

const CAPABILITY_FILE = /\.(json|toml)$/;

function listFiles(dir: string, filter: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .filter((name) => filter(name) && statSync(path.join(dir, name)).isFile())
    .map((name) => path.join(dir, name));
}

function walkCapabilities(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "schemas" ? [] : walkCapabilities(full);
      return entry.isFile() && CAPABILITY_FILE.test(entry.name) ? [full] : [];
    });
}

function argsOf(caseDir: string): string[] {
  const file = `${caseDir}.args`;
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
    : [];
}

function collectSeeds(): Seed[] {
  const seeds: Seed[] = [];
  const addApp = (appDir: string) => {
    for (const file of walkCapabilities(path.join(appDir, "src-tauri", "capabilities"))) {
      seeds.push({
        kind: "app",
        appDir,
        args: argsOf(appDir),
        source: file,
        relative: path.join(path.basename(appDir), path.relative(appDir, file)),
      });
    }
  };
  const ruleFixtures = path.join(FIXTURES, "capabilities");
  for (const rule of readdirSync(ruleFixtures).sort()) {
    for (const group of ["valid", "invalid"]) {
      const dir = path.join(ruleFixtures, rule, group);
      for (const file of listFiles(dir, (n) => CAPABILITY_FILE.test(n)))
        seeds.push({ kind: "file", args: [], source: file, relative: path.basename(file) });
      if (group !== "valid" || !existsSync(dir)) continue;
      for (const name of readdirSync(dir).sort())
        if (existsSync(path.join(dir, name, "src-tauri"))) addApp(path.join(dir, name));
    }
  }
  addApp(path.join(FIXTURES, "queries", "app"));
  for (const file of listFiles(path.join(FIXTURES, "real-world-samples"), (n) =>
    CAPABILITY_FILE.test(n),
  )) {
    seeds.push({ kind: "file", args: [], source: file, relative: path.basename(file) });
  }
  return seeds;
}

const SEEDS = collectSeeds();

// ---------------------------------------------------------------------------------------------
// Structural mutations, on the parsed value

const STRUCTURAL = [
  "drop-field",
  "retype",
  "rename-permission",
  "duplicate-entry",
  "add-platforms",
  "add-suppression",
  "set-labels",
  "set-remote",
  "swap-entries",
  "wrap",
  "replace-string",
  "duplicate-key",
] as const;
type StructuralKind = (typeof STRUCTURAL)[number];

interface Structural {
  kind: StructuralKind;
  a: number;
  b: number;
  c: number;
}

const WRONG_TYPES: unknown[] = [
  null,
  0,
  -1,
  2.5,
  true,
  false,
  "",
  "main",
  [],
  {},
  ["main"],
  [null],
  { urls: "x" },
  [[]],
  { identifier: 1 },
];
const LABELS = [
  "main",
  "*",
  "main-*",
  "settings",
  "[!a]*",
  "**",
  "panel-?",
  "[z-a]",
  "",
  "a/**/b",
  "日本",
];
const URLS = [
  "https://*.example.com",
  "http://localhost:*",
  "https://*",
  "app://*",
  "*://*/*",
  "https://example.com/(a+)+",
  "not a url",
  "http://*:*",
];

type Node = {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
  value: unknown;
  under: string | number | undefined;
};

function nodes(root: unknown): Node[] {
  const out: Node[] = [];
  const visit = (value: unknown, under: string | number | undefined) => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        out.push({ parent: value, key: index, value: item, under });
        visit(item, under);
      });
    } else if (value !== null && typeof value === "object") {
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        out.push({ parent: value as Record<string, unknown>, key, value: item, under: key });
        visit(item, key);
      }
    }
  };
  visit(root, undefined);
  return out;
}

/** Sets an own property, `__proto__` included, as JSON.parse would have. */
function setOwn(
  target: Record<string, unknown> | unknown[],
  key: string | number,
  value: unknown,
): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

const DUPLICATE_MARK = "\u0001dup:";
const clone = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const pick = <T>(list: readonly T[], n: number): T | undefined =>
  list.length ? list[n % list.length] : undefined;

function capabilityObjects(root: unknown): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = isObject(root) ? [root] : [];
  for (const node of nodes(root))
    if (
      isObject(node.value) &&
      ("identifier" in node.value || "permissions" in node.value) &&
      node.under !== "permissions"
    )
      found.push(node.value);
  return found;
}

function mutate(root: unknown, m: Structural): unknown {
  const all = nodes(root);
  switch (m.kind) {
    case "drop-field": {
      const node = pick(
        all.filter((n) => !Array.isArray(n.parent)),
        m.a,
      );
      if (node) delete (node.parent as Record<string, unknown>)[node.key as string];
      return root;
    }
    case "retype": {
      const node = pick(all, m.a);
      if (!node) return pick(WRONG_TYPES, m.b);
      setOwn(node.parent, node.key, clone(pick(WRONG_TYPES, m.b)));
      return root;
    }
    case "rename-permission": {
      const holders = all.filter(
        (n) =>
          n.under === "permissions" &&
          (typeof n.value === "string" ||
            (isObject(n.value) && typeof n.value.identifier === "string")),
      );
      const node = pick(holders, m.a);
      if (!node) return root;
      const rename = RENAMES[m.b % RENAMES.length]!;
      const other = KNOWN_PERMISSIONS[m.c % KNOWN_PERMISSIONS.length]!;
      if (typeof node.value === "string") setOwn(node.parent, node.key, rename(node.value, other));
      else
        setOwn(
          node.value as Record<string, unknown>,
          "identifier",
          rename((node.value as { identifier: string }).identifier, other),
        );
      return root;
    }
    case "duplicate-entry": {
      const arrays = all
        .filter((n) => Array.isArray(n.value) && n.value.length > 0)
        .map((n) => n.value as unknown[]);
      if (Array.isArray(root) && root.length) arrays.push(root);
      // Permission lists first: duplicates there are what duplicate-permission fixes.
      const preferred = all
        .filter((n) => n.key === "permissions" && Array.isArray(n.value) && n.value.length)
        .map((n) => n.value as unknown[]);
      const list = pick(preferred.length && m.c % 3 !== 0 ? preferred : arrays, m.a);
      if (list) list.splice(m.b % (list.length + 1), 0, clone(list[m.c % list.length]));
      return root;
    }
    case "add-platforms": {
      const capability = pick(capabilityObjects(root), m.a);
      if (!capability) return root;
      const values = [
        pick(PLATFORM_VALUES, m.b),
        pick(PLATFORM_VALUES, m.c),
        ...(m.b % 5 === 0 ? [7, null] : []),
      ].slice(0, 1 + (m.a % 3));
      const current = capability.platforms;
      setOwn(capability, "platforms", Array.isArray(current) ? [...current, ...values] : values);
      return root;
    }
    case "add-suppression": {
      const capability = pick(capabilityObjects(root), m.a);
      if (!capability) return root;
      const ids = [...RULE_IDS, "no-such-rule", "parse", ""];
      const current = capability["caplint-disable"];
      const added = [pick(ids, m.b), ...(m.c % 2 ? [pick(ids, m.c)] : [])];
      setOwn(
        capability,
        "caplint-disable",
        Array.isArray(current) ? [...current, ...added] : added,
      );
      return root;
    }
    case "set-labels": {
      const capability = pick(capabilityObjects(root), m.a);
      if (capability)
        setOwn(
          capability,
          m.b % 2 ? "webviews" : "windows",
          [pick(LABELS, m.b), pick(LABELS, m.c)].slice(0, 1 + (m.c % 2)),
        );
      return root;
    }
    case "set-remote": {
      const capability = pick(capabilityObjects(root), m.a);
      if (capability)
        setOwn(capability, "remote", {
          urls: [pick(URLS, m.b), pick(URLS, m.c)].slice(0, 1 + (m.a % 2)),
        });
      return root;
    }
    case "swap-entries": {
      const list = pick(
        all
          .filter((n) => Array.isArray(n.value) && n.value.length > 1)
          .map((n) => n.value as unknown[]),
        m.a,
      );
      if (list) {
        const [i, j] = [m.b % list.length, m.c % list.length];
        [list[i], list[j]] = [list[j], list[i]];
      }
      return root;
    }
    case "wrap":
      if (m.a % 3 === 0 && Array.isArray(root)) return root[0] ?? root;
      return m.a % 3 === 1 ? [root] : { capabilities: [root] };
    case "duplicate-key": {
      // A key written twice (JSON.parse keeps the last): marked here, turned into the real key once written.
      const node = pick(
        all.filter((n) => !Array.isArray(n.parent)),
        m.a,
      );
      if (!node) return root;
      const parent = node.parent as Record<string, unknown>;
      setOwn(
        parent,
        `${DUPLICATE_MARK}${String(node.key)}`,
        clone(m.c % 2 ? node.value : pick(WRONG_TYPES, m.c)),
      );
      if (m.b % 2) {
        // The original moves after its copy: then the original is the one that counts.
        const original = parent[node.key];
        delete parent[node.key];
        setOwn(parent, node.key, original);
      }
      return root;
    }
    case "replace-string": {
      const node = pick(
        all.filter((n) => typeof n.value === "string"),
        m.a,
      );
      if (node) setOwn(node.parent, node.key, pick(NASTY_STRINGS, m.b));
      return root;
    }
  }
}

function applyStructural(
  text: string,
  toml: boolean,
  mutations: Structural[],
  indent: number,
): string {
  if (mutations.length === 0) return text;
  let value: unknown;
  try {
    value = toml ? JSON.parse(JSON.stringify(parseToml(text))) : JSON.parse(text);
  } catch {
    return text; // seeds that do not parse (parse-rule fixtures) only get byte mutations
  }
  for (const m of mutations) value = mutate(value, m);
  const unmark = (written: string) => written.replace(/"\\u0001dup:/g, '"');
  if (!toml) return unmark(JSON.stringify(value, null, indent) + "\n");
  try {
    return isObject(value) ? unmark(stringifyToml(value)) : text;
  } catch {
    return text;
  }
}

// ---------------------------------------------------------------------------------------------
// Byte-level mutations

interface ByteMutation {
  kind: "delete" | "insert" | "swap" | "duplicate" | "truncate" | "replace";
  at: number;
  other: number;
  length: number;
  bytes: Uint8Array;
}

const INTERESTING_BYTES = [
  '"',
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  "\\",
  "\n",
  "\r",
  "\u0000",
  "/*",
  "//",
  "#",
  "=",
  "\uFEFF",
  "\u2028",
  "🙂",
  "e\u0301",
  "-",
  "_",
  "*",
  "\\u0000",
  "\\ud800",
].map((s) => Buffer.from(s, "utf8"));
const RAW_BYTES = [
  Buffer.from([0xff]),
  Buffer.from([0xc3]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf0, 0x9f]),
];

const byteMutation: fc.Arbitrary<ByteMutation> = fc.record({
  kind: fc.constantFrom("delete", "insert", "swap", "duplicate", "truncate", "replace"),
  at: fc.nat(),
  other: fc.nat(),
  length: fc.integer({ min: 1, max: 24 }),
  bytes: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...INTERESTING_BYTES) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BYTES) },
    { weight: 2, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 6 }) },
  ),
});

function applyBytes(input: Buffer, mutations: ByteMutation[]): Buffer {
  let data = input;
  for (const m of mutations) {
    const at = m.at % (data.length + 1);
    const end = Math.min(data.length, at + m.length);
    switch (m.kind) {
      case "delete":
        data = Buffer.concat([data.subarray(0, at), data.subarray(end)]);
        break;
      case "insert":
        data = Buffer.concat([data.subarray(0, at), m.bytes, data.subarray(at)]);
        break;
      case "replace":
        data = Buffer.concat([
          data.subarray(0, at),
          m.bytes,
          data.subarray(Math.min(data.length, at + m.bytes.length)),
        ]);
        break;
      case "duplicate":
        data = Buffer.concat([data.subarray(0, end), data.subarray(at, end), data.subarray(end)]);
        break;
      case "truncate":
        data = data.subarray(0, at);
        break;
      case "swap": {
        const other = m.other % (data.length + 1);
        const [first, second] = at <= other ? [at, other] : [other, at];
        const firstEnd = Math.min(second, first + m.length);
        const secondEnd = Math.min(data.length, second + m.length);
        data = Buffer.concat([
          data.subarray(0, first),
          data.subarray(second, secondEnd),
          data.subarray(firstEnd, second),
          data.subarray(first, firstEnd),
          data.subarray(secondEnd),
        ]);
        break;
      }
    }
  }
  return Buffer.from(data);
}

// ---------------------------------------------------------------------------------------------
// Cases

interface Case {
  seed: Seed;
  structural: Structural[];
  bytes: ByteMutation[];
  indent: number;
}

const structural: fc.Arbitrary<Structural> = fc.record({
  kind: fc.constantFrom(...STRUCTURAL),
  a: fc.nat(),
  b: fc.nat(),
  c: fc.nat(),
});

/** `byteShare` of 6 cases get byte mutations (which mostly break the syntax); the others parse. */
const mutationCase = (byteShare: number): fc.Arbitrary<Case> =>
  fc.record({
    seed: fc.constantFrom(...SEEDS),
    structural: fc.array(structural, { maxLength: 4 }),
    bytes: fc.oneof(
      { weight: 6 - byteShare, arbitrary: fc.constant<ByteMutation[]>([]) },
      { weight: byteShare, arbitrary: fc.array(byteMutation, { minLength: 1, maxLength: 3 }) },
    ),
    indent: fc.constantFrom(0, 2, 4),
  });

function caseLabel(c: Case): string {
  return `${path.relative(FIXTURES, c.seed.source)} (${c.seed.kind})`;
}

/** Writes the case into `dir`; returns the argv that checks it and the mutated file's absolute path. */
function materialize(c: Case, dir: string): { target: string[]; file: string; content: Buffer } {
  const original = readFileSync(c.seed.source, "utf8");
  const toml = c.seed.source.endsWith(".toml");
  const content = applyBytes(
    Buffer.from(applyStructural(original, toml, c.structural, c.indent), "utf8"),
    c.bytes,
  );
  if (c.seed.kind === "app")
    cpSync(c.seed.appDir!, path.join(dir, path.basename(c.seed.appDir!)), { recursive: true });
  const file = path.join(dir, c.seed.relative);
  writeFileSync(file, content);
  const target =
    c.seed.kind === "app"
      ? ["--app", path.basename(c.seed.appDir!), ...c.seed.args]
      : [c.seed.relative];
  return { target, file, content };
}

/** Every file under `dir`, for "nothing else changed" comparisons. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.set(path.relative(dir, full), readFileSync(full, "latin1"));
    }
  };
  walk(dir);
  return out;
}

const fixableRules = (report: JsonReport) =>
  new Set(report.diagnostics.filter((d) => d.fixable).map((d) => d.ruleId));
const parsedFine = (report: JsonReport, file: string) =>
  !report.diagnostics.some((d) => d.ruleId === "parse" && d.file === file);

describe(`fuzz: mutated capability files (seed ${SEED}, ${RUNS} runs, ${SEEDS.length} seed files)`, () => {
  it("has seeds of every kind", () => {
    expect(SEEDS.filter((s) => s.kind === "app").length).toBeGreaterThan(5);
    expect(
      SEEDS.filter((s) => s.source.includes("real-world-samples")).length,
    ).toBeGreaterThanOrEqual(10);
    expect(SEEDS.filter((s) => s.source.endsWith(".toml")).length).toBeGreaterThan(5);
  });

  it(
    "check never throws, is well formed and deterministic (json and stylish)",
    async () => {
      await fc.assert(
        fc.asyncProperty(mutationCase(4), async (c) => {
          await inTempDir("mutation", async (dir) => {
            const { target } = materialize(c, dir);
            const first = await timedRun(["check", "--format", "json", ...target], dir);
            expectCheckReport(first, dir);
            const second = await timedRun(["check", "--format", "json", ...target], dir);
            expect(second.stdout, `${caseLabel(c)}: json output is deterministic`).toBe(
              first.stdout,
            );
            const stylish = await timedRun(["check", "--format", "stylish", ...target], dir);
            const stylishAgain = await timedRun(["check", "--format", "stylish", ...target], dir);
            expect(stylish.stderr).toBe("");
            expect(stylish.code).toBe(first.code);
            expect(stylishAgain.stdout, `${caseLabel(c)}: stylish output is deterministic`).toBe(
              stylish.stdout,
            );
          });
        }),
        params(3),
      );
    },
    timeoutFor(60),
  );

  it(
    "--fix-dry-run writes nothing; --fix keeps files parseable, leaves nothing fixable it fixed, and is idempotent",
    async () => {
      await fc.assert(
        // Fixes only apply to files that parse: most of these cases keep the syntax.
        fc.asyncProperty(mutationCase(1), async (c) => {
          await inTempDir("fix", async (dir) => {
            const { target, file } = materialize(c, dir);
            const relative = path.relative(dir, file).split(path.sep).join("/");
            const before = snapshot(dir);
            const pre = expectCheckReport(
              await timedRun(["check", "--format", "json", ...target], dir),
              dir,
            );

            const dry = await timedRun(
              ["check", "--fix-dry-run", "--format", "json", ...target],
              dir,
            );
            expect(dry.stderr).toBe("");
            expect(snapshot(dir), "--fix-dry-run writes nothing").toEqual(before);

            const fixed = await timedRun(["check", "--fix", "--format", "json", ...target], dir);
            expect(fixed.stderr).toBe("");
            expect([0, 1]).toContain(fixed.code);
            expect(fixed.code, "--fix-dry-run and --fix report the same outcome").toBe(dry.code);
            const afterFix = snapshot(dir);
            for (const [name, text] of before) {
              const untouchable =
                !(name.endsWith(".json") || name.endsWith(".toml")) || !parsedFine(pre, name);
              if (untouchable) expect(afterFix.get(name), `${name} is not rewritten`).toBe(text);
            }
            expect([...afterFix.keys()].sort(), "no file appears or disappears").toEqual(
              [...before.keys()].sort(),
            );

            const relint = await timedRun(["check", "--format", "json", ...target], dir);
            const post = expectCheckReport(relint, dir);
            // Only --fix can say which fixable findings it had to leave (a TOML array of tables): the rest is the same report.
            expect(
              relint.stdout,
              "--fix reports what a fresh check of the written files reports",
            ).toBe(withoutLeftFixNotes(fixed.stdout));
            for (const name of before.keys()) {
              if (parsedFine(pre, name))
                expect(parsedFine(post, name), `${name} still parses after --fix`).toBe(true);
            }
            const schemaErrors = (report: JsonReport) =>
              report.diagnostics.filter((d) => d.ruleId === "schema").length;
            expect(schemaErrors(post), "--fix adds no schema error").toBeLessThanOrEqual(
              schemaErrors(pre),
            );
            // The brief's property is "no fixable finding of a rule whose fixes applied"; README promises
            // more: passes go on until nothing fixable is left, so nothing fixable may remain at all.
            const applied = fixableRules(pre);
            expect(
              post.diagnostics.filter((d) => d.fixable && applied.has(d.ruleId)),
              `fixable findings of the fixed rules left in ${relative}`,
            ).toEqual([]);
            expect(
              post.diagnostics.filter((d) => d.fixable),
              `fixable findings left after --fix in ${relative}`,
            ).toEqual([]);

            const again = await timedRun(["check", "--fix", "--format", "json", ...target], dir);
            expect(again.stderr).toBe("");
            expect(snapshot(dir), "a second --fix changes nothing").toEqual(afterFix);
            expect(again.stdout).toBe(fixed.stdout);
          });
        }),
        params(4),
      );
    },
    timeoutFor(100),
  );
});

/** A `check --fix --format json` report without the notes that name fixes --fix had to leave. */
function withoutLeftFixNotes(stdout: string): string {
  const report = JSON.parse(stdout) as { summary: { notes?: string[] } };
  const notes = report.summary.notes?.filter(
    (note) => !/fixable findings? (was|were) left/.test(note),
  );
  if (notes === undefined || notes.length === report.summary.notes!.length) return stdout;
  if (notes.length) report.summary.notes = notes;
  else delete report.summary.notes;
  return JSON.stringify(report, null, 2) + "\n";
}
