/**
 * Property 4: app permission files (`src-tauri/permissions/*.toml` with `[[permission]]`, `[[set]]`
 * and `[default]`) whose sets reference each other at random (cycles, self-references, unknown
 * members, invalid identifiers, members that look like other plugins' permissions), plus a
 * capability naming some of them. `check` reports the cycles (set-cycle) and the unknown members
 * (unknown-set-member) a small reference model finds, instead of overflowing; `access`, `resolve`
 * and `matrix` never throw. A second family builds the shapes that blow up a naive resolver: very
 * long chains and ladders of sets that each include the next one twice.
 */
import fc from "fast-check";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_LEAVES_PER_ENTRY, MAX_SET_DEPTH } from "../../src/capabilities/engine/index.js";
import {
  expectCheckReport,
  expectFatalShape,
  inTempDir,
  params,
  parseJson,
  RUNS,
  SEED,
  timedRun,
  timeoutFor,
  type JsonReport,
} from "./support.js";

const SET_IDS = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"];
const PERMISSION_IDS = ["allow-a", "allow-b", "deny-a", "p-scoped"];
/** Members that are neither app sets nor app permissions, each resolving to a known outcome. */
const STRANGERS = {
  unknown: ["allow-missing", "s9", "nope:thing", "fs:allow-nothing", "core:window:allow-nothing"],
  invalid: ["bad_member", "-x", "trailing-", "a--b", "host-plugin-x", ""],
  /** Other plugins' permissions and sets: they resolve, and cannot lead back into the app's sets. */
  foreign: ["fs:allow-read-file", "core:default", "core:window:allow-close", "fs:read-all"],
};

interface SetDef {
  id: string;
  members: string[];
}

interface Scenario {
  sets: SetDef[];
  /** Members of `[default]`, or undefined for no `[default]`. */
  defaultMembers: string[] | undefined;
  /** How many permission files the definitions are spread over. */
  files: number;
  capabilityRefs: string[];
}

const member = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...SET_IDS) },
  { weight: 4, arbitrary: fc.constantFrom(...PERMISSION_IDS) },
  { weight: 1, arbitrary: fc.constant("default") },
  { weight: 1, arbitrary: fc.constantFrom(...STRANGERS.unknown) },
  { weight: 1, arbitrary: fc.constantFrom(...STRANGERS.invalid) },
  { weight: 1, arbitrary: fc.constantFrom(...STRANGERS.foreign) },
);

const randomGraph: fc.Arbitrary<Scenario> = fc.record({
  sets: fc
    .uniqueArray(fc.constantFrom(...SET_IDS), { minLength: 1, maxLength: SET_IDS.length })
    .chain((ids) =>
      fc.tuple(
        ...ids.map((id) =>
          fc.array(member, { maxLength: 4 }).map((members): SetDef => ({ id, members })),
        ),
      ),
    ),
  defaultMembers: fc.option(fc.array(member, { maxLength: 3 }), { nil: undefined }),
  files: fc.integer({ min: 1, max: 3 }),
  capabilityRefs: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...SET_IDS) },
      { weight: 1, arbitrary: fc.constantFrom(...PERMISSION_IDS, "default") },
    ),
    { minLength: 1, maxLength: 3 },
  ),
});

function toml(value: string): string {
  return JSON.stringify(value);
}

function permissionFiles(s: Scenario): string[] {
  const blocks: string[] = PERMISSION_IDS.map((id, i) =>
    id === "p-scoped"
      ? `[[permission]]\nidentifier = "p-scoped"\ncommands.allow = ["scoped_cmd"]\n[[permission.scope.allow]]\npath = "$APPDATA/**"\n`
      : `[[permission]]\nidentifier = ${toml(id)}\ncommands.${id.startsWith("deny") ? "deny" : "allow"} = ["cmd_${i}"]\n`,
  );
  for (const set of s.sets)
    blocks.push(
      `[[set]]\nidentifier = ${toml(set.id)}\ndescription = "set ${set.id}"\npermissions = [${set.members.map(toml).join(", ")}]\n`,
    );
  const files: string[][] = Array.from({ length: s.files }, () => []);
  blocks.forEach((block, i) => files[i % s.files]!.push(block));
  if (s.defaultMembers)
    files[0]!.unshift(
      `[default]\ndescription = "defaults"\npermissions = [${s.defaultMembers.map(toml).join(", ")}]\n`,
    );
  return files.map((blocks) => blocks.join("\n"));
}

function writeApp(dir: string, s: Scenario, rawFiles?: string[]): void {
  const srcTauri = path.join(dir, "src-tauri");
  mkdirSync(path.join(srcTauri, "capabilities"), { recursive: true });
  mkdirSync(path.join(srcTauri, "permissions"), { recursive: true });
  (rawFiles ?? permissionFiles(s)).forEach((text, i) =>
    writeFileSync(path.join(srcTauri, "permissions", `file-${i}.toml`), text),
  );
  writeFileSync(
    path.join(srcTauri, "tauri.conf.json"),
    JSON.stringify({ identifier: "dev.fuzz", app: { windows: [{ label: "main" }] } }),
  );
  writeFileSync(
    path.join(srcTauri, "capabilities", "main.json"),
    JSON.stringify(
      { identifier: "main", windows: ["main"], permissions: ["core:default", ...s.capabilityRefs] },
      null,
      2,
    ),
  );
}

/**
 * The reference model: the app's set graph, walked from each capability reference. Unprefixed
 * members name the app's permissions first, then its sets; `default` names `[default]`. Prefixed
 * members switch to a plugin that exists (foreign ones never lead back) or are looked up whole, and
 * not found.
 */
function expectations(s: Scenario): {
  cycles: boolean;
  unknown: Array<{ member: string; set: string }>;
  invalid: string[];
} {
  const sets = new Map<string, string[]>(s.sets.map((set) => [set.id, set.members]));
  if (s.defaultMembers) sets.set("default", s.defaultMembers);
  const isApp = (m: string) => !m.includes(":");
  const unknown: Array<{ member: string; set: string }> = [];
  const invalid: string[] = [];
  let cycles = false;
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (id: string) => {
    if (onPath.includes(id)) {
      cycles = true;
      return;
    }
    if (done.has(id)) return;
    onPath.push(id);
    for (const m of sets.get(id)!) {
      if (STRANGERS.invalid.includes(m)) invalid.push(m);
      else if (STRANGERS.unknown.includes(m)) unknown.push({ member: m, set: id });
      else if (isApp(m) && !PERMISSION_IDS.includes(m) && sets.has(m)) visit(m);
      else if (isApp(m) && !PERMISSION_IDS.includes(m) && m !== "default")
        unknown.push({ member: m, set: id });
    }
    onPath.pop();
    done.add(id);
  };
  for (const ref of s.capabilityRefs)
    if (sets.has(ref) && !PERMISSION_IDS.includes(ref)) visit(ref);
  return { cycles, unknown, invalid };
}

async function queriesNeverThrow(dir: string): Promise<void> {
  for (const argv of [
    ["access", "--window=main", "--format", "json", "--platform", "linux"],
    ["access", "--window=main", "--command=cmd_0", "--format", "json", "--platform", "linux"],
    ["resolve", "--platform", "linux"],
    ["matrix", "--format", "json", "--platform", "linux"],
  ]) {
    const result = await timedRun(argv, dir);
    if (result.code === 2) expectFatalShape(result);
    expect(result.stderr, argv.join(" ")).toBe("");
    expect([0, 1], argv.join(" ")).toContain(result.code);
    parseJson(result, argv[0]!);
  }
}

function findings(report: JsonReport, ruleId: string) {
  return report.diagnostics.filter((d) => d.ruleId === ruleId);
}

/** Leaves of s0 in an open ladder: set i has its own leaf (every `leafEvery`th) and `copies` times set i+1's. */
function leafCount(length: number, copies: number, leafEvery: number): number {
  let count = 0;
  for (let i = length - 1; i >= 0; i--)
    count = Math.min(1e9, (leafEvery && i % leafEvery === 0 ? 1 : 0) + copies * count);
  return count;
}

describe(`fuzz: permission sets with cycles (seed ${SEED}, ${RUNS} runs)`, () => {
  it(
    "random set graphs: check reports the cycles and unknown members, queries never throw",
    async () => {
      await fc.assert(
        fc.asyncProperty(randomGraph, async (s) => {
          await inTempDir("sets", async (dir) => {
            writeApp(dir, s);
            const check = await timedRun(["check", "--format", "json"], dir);
            const report = expectCheckReport(check, dir);
            const expected = expectations(s);
            const cycleFindings = findings(report, "set-cycle");
            // A set graph that multiplies out is refused whole (also a set-cycle finding), hiding what is inside.
            const refused = cycleFindings.some((d) => !d.message.includes("in a cycle"));
            if (expected.cycles)
              expect(cycleFindings.length, "a reachable cycle is reported").toBeGreaterThan(0);
            else
              expect(
                cycleFindings.filter((d) => d.message.includes("in a cycle")),
                "no cycle, no set-cycle finding",
              ).toEqual([]);
            const memberFindings = findings(report, "unknown-set-member");
            if (!refused) {
              for (const { member: m, set } of expected.unknown) {
                expect(
                  memberFindings.some((d) =>
                    d.message.includes(`permission ${m} not found from set ${set}`),
                  ),
                  `unknown member ${m} of set ${set} is reported`,
                ).toBe(true);
              }
              for (const m of expected.invalid)
                expect(
                  memberFindings.some((d) => d.message.includes(`invalid identifier \`${m}\``)),
                  `invalid member "${m}" is reported`,
                ).toBe(true);
            }
            if (expected.unknown.length === 0 && expected.invalid.length === 0)
              expect(memberFindings, "no unknown member, no unknown-set-member finding").toEqual(
                [],
              );
            await queriesNeverThrow(dir);
          });
        }),
        params(6),
      );
    },
    timeoutFor(80),
  );

  /** Chains and ladders: set i includes set i+1 (twice in a ladder), optionally closed into a cycle. */
  const pathological = fc.record({
    shape: fc.constantFrom("chain", "ladder"),
    length: fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 2, max: 60 }) },
      { weight: 1, arbitrary: fc.integer({ min: 200, max: 6000 }) },
      { weight: 1, arbitrary: fc.constantFrom(MAX_SET_DEPTH, MAX_SET_DEPTH + 1) },
    ),
    width: fc.integer({ min: 2, max: 3 }),
    closed: fc.boolean(),
    leafEvery: fc.integer({ min: 0, max: 5 }),
  });

  it(
    "long chains and doubling ladders of sets: check and queries answer quickly, cycles are still reported",
    async () => {
      await fc.assert(
        fc.asyncProperty(pathological, async ({ shape, length, width, closed, leafEvery }) => {
          const copies = shape === "ladder" ? width : 1;
          const blocks = [`[[permission]]\nidentifier = "allow-x"\ncommands.allow = ["x"]\n`];
          for (let i = 0; i < length; i++) {
            const next = i + 1 < length ? `s${i + 1}` : closed ? "s0" : undefined;
            const members = [
              ...(next ? Array<string>(copies).fill(next) : []),
              ...(leafEvery && i % leafEvery === 0 ? ["allow-x"] : []),
            ];
            blocks.push(
              `[[set]]\nidentifier = "s${i}"\ndescription = ""\npermissions = [${members.map(toml).join(", ")}]\n`,
            );
          }
          await inTempDir("ladder", async (dir) => {
            writeApp(
              dir,
              { sets: [], defaultMembers: undefined, files: 1, capabilityRefs: ["s0"] },
              [blocks.join("\n")],
            );
            const check = await timedRun(["check", "--format", "json"], dir);
            const report = expectCheckReport(check, dir);
            const cycleFindings = findings(report, "set-cycle");
            if (closed)
              expect(
                cycleFindings.length,
                "the cycle (or the refusal) is reported",
              ).toBeGreaterThan(0);
            else if (length > MAX_SET_DEPTH)
              expect(
                cycleFindings.map((d) => d.message).join("\n"),
                "a chain too deep to follow is refused",
              ).toContain(`nests sets more than ${MAX_SET_DEPTH} levels deep`);
            else if (leafCount(length, copies, leafEvery) > MAX_LEAVES_PER_ENTRY) {
              expect(
                cycleFindings.map((d) => d.message).join("\n"),
                "a set that multiplies out is refused",
              ).toContain(`more than ${MAX_LEAVES_PER_ENTRY.toLocaleString("en-US")}`);
            } else {
              // An acyclic ladder is walked once per set, whatever its width: resolved, not refused.
              expect(cycleFindings, "no cycle, nothing refused").toEqual([]);
              const access = await timedRun(
                [
                  "access",
                  "--window=main",
                  "--command=x",
                  "--format",
                  "json",
                  "--platform",
                  "linux",
                ],
                dir,
              );
              expect(access.code, "the leaf permissions are granted").toBe(leafEvery ? 0 : 1);
            }
            await queriesNeverThrow(dir);
          });
        }),
        params(7),
      );
    },
    timeoutFor(150),
  );
});
