/**
 * Generators of issue 25's size and shape classes with random sizes and parameters (the fixed worst
 * cases of scripts/lib/worst-cases.mjs are single points of these): window glob patterns × labels,
 * recursive MCP input schemas (`$ref` cycles, `anyOf` cycles, arrays whose items are the array, for
 * walks and `--probe`), event lines (wide, deeply nested, duplicate keys, reused call ids, invalid
 * UTF-8 and lone surrogates), TOML nesting and monorepo depth. Each property asserts no crash, the
 * right finding (or the bound's error naming the limit) and bounded WORK, counted, never timed:
 * steps of the glob matchers (`globMatchingWork()`), schema reads (a counting Proxy around the
 * listing), syntax trees built per event line, TOML parses, folders read.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { compileLabelPattern, globMatchingWork } from "../../src/capabilities/engine/match/glob.js";
import { discoverApps } from "../../src/capabilities/load/apps.js";
import { MAX_NESTING_DEPTH, SourceDocument } from "../../src/core/source/document.js";
import { newReadLog, recordReads } from "../../src/core/source/read-log.js";
import { parseToml } from "../../src/core/source/toml.js";
import { createEventValidator } from "../../src/events/validator.js";
import { readLines } from "../../src/events/read-lines.js";
import { typesOf, walkProperties, type SchemaNode } from "../../src/mcp/input-schema.js";
import { planProbe } from "../../src/mcp/probe.js";
import { inTempDir, params, timeoutFor } from "./support.js";

/** How many syntax trees of event lines and TOML parses were made: the per-line and per-file work the bounds promise. */
const built = vi.hoisted(() => ({ jsonTrees: 0, tomlParses: 0 }));
vi.mock("../../src/core/source/json-tree.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/core/source/json-tree.js")>();
  return {
    ...original,
    jsonTree: (...args: Parameters<typeof original.jsonTree>) => {
      built.jsonTrees++;
      return original.jsonTree(...args);
    },
  };
});
vi.mock("smol-toml", async (importOriginal) => {
  const original = await importOriginal<typeof import("smol-toml")>();
  return {
    ...original,
    parse: (...args: Parameters<typeof original.parse>) => {
      built.tomlParses++;
      return original.parse(...args);
    },
  };
});

describe(
  "window glob patterns × labels: matching work is O(pattern + label) per segment word",
  { timeout: timeoutFor(40) },
  () => {
    // Pieces that keep a pattern valid wherever they fall; long runs of single-character tokens (over 32
    // take several words), classes, and labels of few or of many distinct characters (masks are per character).
    const piece = fc.oneof(
      fc.constantFrom("*a", "*?", "/**/", "/", "?", "[a-c]", "[!b]", "[é-ü]", "a", "b", "é"),
      fc.integer({ min: 1, max: 200 }).map((n) => "a".repeat(n)),
      fc.integer({ min: 1, max: 80 }).map((n) => "?".repeat(n)),
    );
    const alphabet = fc.oneof(
      fc.constantFrom(["a"], ["a", "b"], ["a", "/"], ["a", "b", "/", "c"]),
      // Many distinct letters, beyond the matchers' cache of per-character masks.
      fc
        .integer({ min: 1, max: 3_000 })
        .map((n) => Array.from({ length: n }, (_, i) => String.fromCodePoint(0x4e00 + i))),
    );

    const upTo1024 = (pieces: string[]) => {
      let pattern = "";
      for (const p of pieces) if (pattern.length + p.length <= 1_024) pattern += p;
      return pattern;
    };
    const patternArb = fc.oneof(
      fc.array(piece, { minLength: 1, maxLength: 60 }).map(upTo1024),
      // One long run searched between wildcards: the shape whose masks cost the most.
      fc
        .tuple(
          fc.constantFrom("a", "?", "é", "[a-c]", "[!b]"),
          fc.integer({ min: 1, max: 1_000 }),
          fc.constantFrom("*", "*b*", "/**/"),
        )
        .map(([unit, n, after]) => upTo1024(["*", ...Array<string>(n).fill(unit), after])),
    );

    it("patterns of random shapes against labels of random lengths and alphabets", () => {
      fc.assert(
        fc.property(
          patternArb,
          alphabet,
          fc.integer({ min: 0, max: 60_000 }),
          fc.nat(),
          (pattern, letters, length, shift) => {
            const compiled = compileLabelPattern(pattern);
            expect(compiled.ok, pattern).toBe(true);
            if (!compiled.ok) return;
            const label = Array.from(
              { length },
              (_, i) => letters[(i + shift) % letters.length]!,
            ).join("");
            const before = globMatchingWork();
            expect(typeof compiled.match(label)).toBe("boolean");
            const work = globMatchingWork() - before;
            // The longest run of single-character tokens sets the words per step (32 tokens a word); a code
            // point the masks have not met costs its words again and the classes' text, never the whole run.
            const perCodePoint = pattern
              .split(/\*\*\/|\*/)
              .map(
                (run) =>
                  2 * Math.ceil(run.replace(/\[[^\]]*\]/g, "x").length / 32) +
                  (run.match(/\[[^\]]*\]/g) ?? []).join("").length,
              )
              .reduce((sum, cost) => sum + cost, 0);
            expect(
              work,
              `${work} steps for a ${pattern.length}-character pattern against a ${length}-character label`,
            ).toBeLessThanOrEqual(4 * (pattern.length + [...label].length * perCodePoint) + 64);
          },
        ),
        { ...params(901), numRuns: Math.min(200, params(901).numRuns * 2) },
      );
    });
  },
);

/** A listing's schema as nested plain objects, and its size in JSON values (the unit of the work bound). */
type Schema = Record<string, unknown>;
function jsonValues(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce<number>((n, v) => n + jsonValues(v), 0);
  if (value !== null && typeof value === "object")
    return 1 + Object.values(value).reduce<number>((n, v) => n + jsonValues(v), 0);
  return 1;
}

/** Wraps a value so that every read of a key of it, or of anything reached through it, is counted. */
function countingReads<T extends object>(value: T): { value: T; reads: () => number } {
  let reads = 0;
  const proxies = new WeakMap<object, object>();
  const wrap = (target: object): object => {
    let proxy = proxies.get(target);
    if (!proxy) {
      proxy = new Proxy(target, {
        get(object, key, receiver) {
          reads++;
          const found: unknown = Reflect.get(object, key, receiver);
          return found !== null && typeof found === "object" ? wrap(found) : found;
        },
        has(object, key) {
          reads++;
          return Reflect.has(object, key);
        },
      });
      proxies.set(target, proxy);
    }
    return proxy;
  };
  return { value: wrap(value) as T, reads: () => reads };
}

/**
 * Random graphs of model definitions: objects whose properties `$ref` any model (themselves included),
 * `anyOf` unions of `$ref`s (cycles of unions), and arrays whose items `$ref` a model (the array itself).
 */
const schemaGraph = fc
  .integer({ min: 1, max: 10 })
  .chain((models) => {
    const ref = fc.integer({ min: 0, max: models - 1 }).map((k) => ({ $ref: `#/$defs/M${k}` }));
    const model = fc.oneof(
      fc
        .array(fc.tuple(fc.boolean(), fc.oneof(ref, fc.constant({ type: "string" }))), {
          maxLength: 16,
        })
        .map((properties) => ({
          type: "object",
          properties: Object.fromEntries(properties.map(([, schema], i) => [`p${i}`, schema])),
          required: properties.flatMap(([required], i) => (required ? [`p${i}`] : [])),
        })),
      fc
        .array(fc.oneof(ref, fc.constant({ type: "integer" })), { minLength: 1, maxLength: 40 })
        .map((anyOf) => ({ anyOf })),
      fc
        .tuple(ref, fc.integer({ min: 0, max: 3 }))
        .map(([items, minItems]) => ({ type: "array", items, minItems })),
    );
    return fc.array(model, { minLength: models, maxLength: models });
  })
  .map((models): Schema => ({
    type: "object",
    properties: {
      root: { $ref: "#/$defs/M0" },
      list: { type: "array", items: { $ref: "#/$defs/M0" }, minItems: 1 },
    },
    required: ["root", "list"],
    $defs: Object.fromEntries(models.map((model, k) => [`M${k}`, model])),
  }));

/** The types a schema admits by the rule typesOf documents: its `type`, else the union over `anyOf` members, each model once. */
function expectedTypes(
  schema: Schema,
  models: Record<string, Schema>,
  seen = new Set<Schema>(),
): Set<string> {
  const resolved =
    typeof schema.$ref === "string" ? models[schema.$ref.slice("#/$defs/".length)]! : schema;
  if (typeof resolved.type === "string") return new Set([resolved.type]);
  if (seen.has(resolved)) return new Set();
  seen.add(resolved);
  const types = new Set<string>();
  for (const member of (resolved.anyOf as Schema[] | undefined) ?? [])
    for (const t of expectedTypes(member, models, seen)) types.add(t);
  return types;
}

describe(
  "recursive MCP input schemas: walks and --probe stay linear and never overflow",
  { timeout: timeoutFor(40) },
  () => {
    it("walkProperties reports each model's property once, typesOf follows anyOf cycles once: reads linear in the listing", () => {
      fc.assert(
        fc.property(schemaGraph, (schema) => {
          const size = jsonValues(schema);
          const { value, reads } = countingReads(schema);
          const document: SchemaNode = { schema: value, path: ["tools", 0, "inputSchema"] };
          const seen = new Set<string>();
          for (const property of walkProperties(document, document)) {
            const key = `${property.written.path.join("/")}`;
            expect(seen.has(key), `${key} reported twice`).toBe(false);
            seen.add(key);
          }
          const models = schema.$defs as Record<string, Schema>;
          for (const name of Object.keys(models)) {
            const node = {
              schema: (value.$defs as Record<string, Schema>)[name]!,
              path: ["$defs", name],
            };
            expect([...typesOf(document, node)].sort(), name).toEqual(
              [...expectedTypes(models[name]!, models)].sort(),
            );
          }
          // Every walk and every question reads each schema object a bounded number of times.
          expect(
            reads(),
            `${reads()} reads of a listing of ${size} JSON values`,
          ).toBeLessThanOrEqual(60 * size * (1 + Object.keys(models).length));
        }),
        params(902),
      );
    });

    it("--probe samples recursive schemas (arrays whose items are the array, required $ref cycles) in bounded values and reads", () => {
      fc.assert(
        fc.property(schemaGraph, (schema) => {
          const size = jsonValues(schema);
          const { value, reads } = countingReads({
            name: "demo_get_tree",
            annotations: { readOnlyHint: true },
            inputSchema: schema,
          });
          const { calls } = planProbe([value], 3);
          expect(calls.length).toBeGreaterThan(0);
          for (const call of calls) {
            const text = JSON.stringify(call.arguments);
            // At most 1,000 values are made per tool; each holds at most 16 properties or 5 items.
            expect(jsonValues(JSON.parse(text))).toBeLessThanOrEqual(1_000 * 17 + 1);
          }
          expect(
            reads(),
            `${reads()} reads of a listing of ${size} JSON values`,
          ).toBeLessThanOrEqual(3 * 1_001 * 60 * size);
        }),
        params(903),
      );
    });
  },
);

const TOOL_START = (id: number) =>
  `{"type":"tool_start","tool_call_id":${id},"message_id":1,"name":"run","arguments":{},"display_name":"Run","icon":"shell","label_short":"a","label_full":"b"}`;

describe(
  "event lines of every size class: the right findings, one syntax tree per line",
  { timeout: timeoutFor(40) },
  () => {
    it("wide lines: N unknown fields and K fields written twice give N + K findings from one tree", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 5_000 }),
          fc.integer({ min: 0, max: 50 }),
          (unknown, repeated) => {
            let line = '{"type":"user_message","message_id":1,"content":"x"';
            for (let i = 0; i < unknown; i++) line += `,"u${i}":${i}`;
            for (let i = 0; i < repeated; i++) line += `,"content":"again ${i}"`;
            const trees = built.jsonTrees;
            const findings = createEventValidator().push(`${line}}`);
            expect(findings.filter((d) => d.ruleId === "event-unknown-field")).toHaveLength(
              unknown,
            );
            expect(findings.filter((d) => d.ruleId === "event-json")).toHaveLength(repeated);
            expect(built.jsonTrees - trees).toBeLessThanOrEqual(1);
          },
        ),
        { ...params(904), numRuns: Math.min(25, params(904).numRuns) },
      );
    });

    it("arguments nested deep (arrays and objects, up to 30,000 levels; test/performance has 1,000,000) keep the line's other checks", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 30_000 }),
          fc.boolean(),
          fc.constantFrom("1.5", '"1"', "1e400", "true", "null"),
          (depth, objects, messageId) => {
            const [open, close] = objects ? ['{"a":', "}"] : ["[", "]"];
            const line = `{"type":"tool_start","tool_call_id":1,"message_id":${messageId},"name":"run","arguments":{"x":${open.repeat(depth)}1${close.repeat(depth)}},"display_name":"Run","icon":"shell","label_short":"a","label_full":"b"}`;
            const trees = built.jsonTrees;
            const findings = createEventValidator().push(line);
            expect(
              findings.some(
                (d) => d.ruleId === "event-field" && d.message.includes('"message_id"'),
              ),
            ).toBe(true);
            expect(built.jsonTrees - trees).toBeLessThanOrEqual(1);
          },
        ),
        { ...params(905), numRuns: Math.min(15, params(905).numRuns) },
      );
    });

    it("a tool_call_id reused after any number of other calls is found", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 15_000 }),
          fc.nat(),
          fc.boolean(),
          (calls, pick, shuffled) => {
            const validator = createEventValidator();
            validator.push('{"type":"user_message","message_id":1,"content":"go"}');
            // Ids counting up, or spread out (every seventh), as servers number them.
            const id = (i: number) => (shuffled ? ((i * 7) % 100_003) + 1 : i + 1);
            let findings = 0;
            for (let i = 0; i < calls; i++) {
              findings += validator.push(TOOL_START(id(i))).length;
              findings += validator.push(
                `{"type":"tool_done","tool_call_id":${id(i)},"result":"ok"}`,
              ).length;
            }
            expect(findings).toBe(0);
            const reused = validator.push(TOOL_START(id(pick % calls)));
            expect(reused.map((d) => d.ruleId)).toContain("tool-lifecycle");
          },
        ),
        { ...params(906), numRuns: Math.min(8, params(906).numRuns) },
      );
    });

    it("bytes that are not UTF-8, cut anywhere into chunks, mark exactly their lines; lone surrogate escapes are findings", async () => {
      const badBytes = fc.constantFrom(
        [0xff],
        [0xc3],
        [0xe2, 0x82],
        [0xed, 0xa0, 0x80],
        [0xf8, 0x88, 0x80, 0x80],
        [0xc0, 0xaf],
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.tuple(
              fc.option(badBytes, { nil: undefined }),
              fc.boolean(),
              fc.string({ maxLength: 30 }),
            ),
            { minLength: 1, maxLength: 60 },
          ),
          fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 20 }),
          async (lines, cuts) => {
            const bytes = Buffer.concat(
              lines.map(([bad, surrogate, text]) =>
                Buffer.concat([
                  Buffer.from(
                    `{"type":"user_message","message_id":1,"content":${JSON.stringify(text)}${surrogate ? ',"x":"\\udc00"' : ""},"c":"`,
                  ),
                  Buffer.from(bad ?? []),
                  Buffer.from('"}\n'),
                ]),
              ),
            );
            const chunks: Buffer[] = [];
            for (let at = 0, i = 0; at < bytes.length; i++) {
              const size = cuts[i % cuts.length]!;
              chunks.push(bytes.subarray(at, at + size));
              at += size;
            }
            const marked: boolean[] = [];
            const validator = createEventValidator();
            let surrogateFindings = 0;
            await readLines(
              (async function* () {
                yield* chunks;
              })(),
              {
                line: (text, invalid) => {
                  marked.push(invalid);
                  surrogateFindings += validator
                    .push(text)
                    .filter(
                      (d) => d.ruleId === "event-json" && d.message.includes("surrogate"),
                    ).length;
                },
                overlong: () => expect.unreachable("no line is that long"),
              },
              1_000_000,
            );
            expect(marked).toEqual(lines.map(([bad]) => bad !== undefined));
            expect(surrogateFindings).toBe(lines.filter(([, surrogate]) => surrogate).length);
          },
        ),
        params(907),
      );
    });
  },
);

describe(
  "TOML nesting: over the bound is a finding naming it, found before the parser runs",
  { timeout: timeoutFor(40) },
  () => {
    const shapes = {
      dotted: (depth: number) =>
        `${Array.from({ length: depth }, (_, i) => `k${i}`).join(".")} = 1\n`,
      header: (depth: number) =>
        `[${Array.from({ length: depth }, (_, i) => `k${i}`).join(".")}]\nx = 1\n`,
      "inline table": (depth: number) => `x = ${"{ a = ".repeat(depth)}1${" }".repeat(depth)}\n`,
      array: (depth: number) => `x = ${"[".repeat(depth)}1${"]".repeat(depth)}\n`,
    };
    it("dotted keys, table headers, inline tables and arrays around and far past 256 levels", () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...(Object.keys(shapes) as Array<keyof typeof shapes>)),
          fc.integer({ min: 1, max: 20_000 }),
          (shape, depth) => {
            const text = `identifier = "a"\n${shapes[shape](depth)}`;
            const parses = built.tomlParses;
            const document = SourceDocument.parse("/x/a.toml", "a.toml", text, "toml", parseToml);
            // Each level is one key or one bracket; the levels the file's own top adds are the shape's first.
            const over =
              depth + (shape === "dotted" || shape === "header" ? 0 : 1) > MAX_NESTING_DEPTH;
            if (over) {
              expect(document.parseError?.message, `${shape} ${depth}`).toMatch(
                new RegExp(`\\b${MAX_NESTING_DEPTH}\\b`),
              );
              expect(built.tomlParses - parses, "the parser never sees a file over the bound").toBe(
                0,
              );
            } else if (depth < MAX_NESTING_DEPTH - 1) {
              expect(document.ok, `${shape} ${depth}: ${document.parseError?.message}`).toBe(true);
              expect(built.tomlParses - parses).toBe(1);
            }
          },
        ),
        params(908),
      );
    });
  },
);

describe(
  "monorepo depth: every app is found, each folder read once",
  { timeout: timeoutFor(40) },
  () => {
    it(
      "apps at random depths (up to 40 folders) among random siblings",
      async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 3 })), {
              minLength: 1,
              maxLength: 5,
            }),
            async (apps) =>
              inTempDir("monorepo", async (root) => {
                const expected: string[] = [];
                let folders = 1;
                apps.forEach(([depth, siblings], n) => {
                  const app = path.join(
                    root,
                    `app${n}`,
                    ...Array.from({ length: depth }, (_, i) => `d${i}`),
                  );
                  mkdirSync(path.join(app, "src-tauri"), { recursive: true });
                  writeFileSync(path.join(app, "src-tauri", "tauri.conf.json"), "{}");
                  for (let s = 0; s < siblings; s++)
                    mkdirSync(path.join(path.dirname(app), `empty${s}`), { recursive: true });
                  expected.push(app);
                  folders += depth + 1 + (depth > 0 || siblings > 0 ? siblings : 0);
                });
                const log = newReadLog();
                const found = await recordReads(log, () => discoverApps(root));
                expect(found.truncated).toBeUndefined();
                expect(found.apps.sort()).toEqual(expected.sort());
                expect(log.folders.size, "folders read").toBeLessThanOrEqual(folders);
              }),
          ),
          { ...params(909), numRuns: Math.min(25, params(909).numRuns) },
        );
      },
      timeoutFor(200),
    );
  },
);
