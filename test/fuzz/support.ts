/**
 * Shared pieces of the fuzz tests: run counts and seed from the environment, temporary folders,
 * an in-process runner that times each run, and the output invariants every property checks.
 *
 * FUZZ_RUNS (default 100) is the number of generated cases per property; FUZZ_SEED (default below)
 * overrides the seed. fast-check prints the seed and the shrunk path of a failure, and
 * `FUZZ_SEED=<seed> npx vitest run test/fuzz` replays a run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { run, type RunResult } from "../helpers/run.js";

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name}=${raw}: expected an integer`);
  return value;
}

export const RUNS = Math.max(1, intFromEnv("FUZZ_RUNS", 100));
export const SEED = intFromEnv("FUZZ_SEED", 20_251_122);

/** fast-check parameters of one property; each property offsets the seed so they do not share a stream. */
export function params(offset: number): { seed: number; numRuns: number } {
  return { seed: (SEED + offset) | 0, numRuns: RUNS };
}

/**
 * A property's time-out, growing with FUZZ_RUNS (cases, not hangs, are what takes time): generous, so
 * a loaded machine never trips it, yet far below what an exponential or quadratic blow-up on these
 * inputs takes. Tests assert no wall-clock time; speed is measured by `npm run bench`.
 */
export function timeoutFor(msPerCase: number): number {
  return Math.max(60_000, RUNS * msPerCase * 4);
}

export interface TimedResult extends RunResult {
  ms: number;
}

/** Runs the CLI in-process; `main` throwing fails the property like any broken invariant. */
export async function timedRun(argv: string[], cwd: string): Promise<TimedResult> {
  const start = performance.now();
  const result = await run(argv, cwd);
  return { ...result, ms: performance.now() - start };
}

/** A fresh temporary folder for one case, removed afterwards (5000-run fuzzing makes many). */
export async function inTempDir<T>(prefix: string, body: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), `caplint-fuzz-${prefix}-`));
  try {
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Exit 2 is a fatal message: at most one line on stderr, nothing else. */
export function expectFatalShape(result: RunResult): void {
  expect(result.stderr, "a fatal error is one line").toMatch(/^caplint: [^\n]*\n$/);
  expect(result.stderr).not.toContain("internal error");
}

interface JsonDiagnostic {
  file: string;
  ruleId: string;
  severity: "error" | "warning" | "suggestion";
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  path: Array<string | number>;
  hint?: string;
  fixable: boolean;
}

export interface JsonReport {
  version: string;
  diagnostics: JsonDiagnostic[];
  summary: {
    files: number;
    errors: number;
    warnings: number;
    suggestions: number;
    fixable: number;
  };
}

/** Lines as the linter counts them: `\n`, `\r\n` and a lone `\r` end a line. */
function linesOf(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/**
 * `check --format json` finished properly: exit 0 or 1 (never 2 for inputs that exist), nothing on
 * stderr, stdout one JSON document whose summary agrees with its findings and the exit code, and every
 * position inside the file it names (read from `cwd`, so call this before anything rewrites files).
 */
export function expectCheckReport(result: RunResult, cwd: string): JsonReport {
  if (result.code === 2) expectFatalShape(result);
  expect(result.stderr, "nothing on stderr").toBe("");
  expect([0, 1]).toContain(result.code);
  let report: JsonReport;
  try {
    report = JSON.parse(result.stdout) as JsonReport;
  } catch (error) {
    throw new Error(
      `stdout is not JSON (${(error as Error).message}):\n${result.stdout.slice(0, 2000)}`,
    );
  }
  expect(Array.isArray(report.diagnostics)).toBe(true);
  const errors = report.diagnostics.filter((d) => d.severity === "error").length;
  expect(report.summary.errors).toBe(errors);
  const warnings = report.diagnostics.filter((d) => d.severity === "warning").length;
  expect(report.summary.warnings).toBe(warnings);
  expect(report.summary.suggestions).toBe(report.diagnostics.length - errors - warnings);
  expect(report.summary.fixable).toBe(report.diagnostics.filter((d) => d.fixable).length);
  expect(result.code).toBe(errors > 0 ? 1 : 0);
  const texts = new Map<string, string[] | undefined>();
  for (const d of report.diagnostics) {
    expect(typeof d.ruleId).toBe("string");
    expect(typeof d.message).toBe("string");
    expect(d.message, "a finding is one line").not.toMatch(/[\r\n]/);
    if (!texts.has(d.file)) {
      const absolute = path.resolve(cwd, d.file);
      texts.set(d.file, existsSync(absolute) ? linesOf(readFileSync(absolute, "utf8")) : undefined);
    }
    const lines = texts.get(d.file);
    const where = `${d.file}:${d.line}:${d.column}-${d.endLine}:${d.endColumn} [${d.ruleId}]`;
    expect(
      Number.isInteger(d.line) && Number.isInteger(d.column) && d.line >= 1 && d.column >= 1,
      where,
    ).toBe(true);
    expect(
      d.endLine > d.line || (d.endLine === d.line && d.endColumn >= d.column),
      `${where}: the end is not before the start`,
    ).toBe(true);
    if (lines) {
      expect(d.endLine, `${where}: inside the file (${lines.length} lines)`).toBeLessThanOrEqual(
        lines.length,
      );
      expect(d.column, `${where}: inside its line`).toBeLessThanOrEqual(
        lines[d.line - 1]!.length + 1,
      );
    }
  }
  return report;
}

const PROTOTYPE_KEYS = [Object.prototype, Array.prototype, Function.prototype].map((proto) =>
  Object.getOwnPropertyNames(proto).sort().join(),
);

/** `__proto__` and `constructor` keys in files stay data: no built-in prototype gained a property. */
export function expectNoPollution(): void {
  expect(
    [Object.prototype, Array.prototype, Function.prototype].map((proto) =>
      Object.getOwnPropertyNames(proto).sort().join(),
    ),
  ).toEqual(PROTOTYPE_KEYS);
}

export function parseJson<T>(result: RunResult, what: string): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch (error) {
    throw new Error(
      `${what}: stdout is not JSON (${(error as Error).message}):\n${result.stdout.slice(0, 2000)}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// A JSON value model that can hold what JSON.stringify cannot write: duplicate keys, `__proto__`
// as a key of any object, and number spellings such as 1e400 or -0.0.

export type J =
  null | boolean | number | string | J[] | { obj: Array<[string, J]> } | { num: string };

export interface JsonStyle {
  indent: string;
  newline: string;
}

export function isObj(value: J): value is { obj: Array<[string, J]> } {
  return value !== null && typeof value === "object" && !Array.isArray(value) && "obj" in value;
}

/** From a plain value (own keys only, so a `__proto__` own key survives). */
export function fromPlain(value: unknown): J {
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(fromPlain);
  if (typeof value === "object")
    return {
      obj: Object.keys(value).map((k) => [k, fromPlain((value as Record<string, unknown>)[k])]),
    };
  return null;
}

export function toJsonText(value: J, style: JsonStyle = { indent: "  ", newline: "\n" }): string {
  const write = (v: J, depth: number): string => {
    if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "string")
      return JSON.stringify(v);
    const pad = style.indent ? style.newline + style.indent.repeat(depth + 1) : "";
    const end = style.indent ? style.newline + style.indent.repeat(depth) : "";
    if (Array.isArray(v))
      return v.length
        ? `[${pad}${v.map((x) => write(x, depth + 1)).join(`,${pad || " "}`)}${end}]`
        : "[]";
    if ("num" in v) return v.num;
    return v.obj.length
      ? `{${pad}${v.obj.map(([k, x]) => `${JSON.stringify(k)}: ${write(x, depth + 1)}`).join(`,${pad || " "}`)}${end}}`
      : "{}";
  };
  return write(value, 0) + style.newline;
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/**
 * TOML for an object at the top (anything else returns undefined): `key = inline value` lines, nulls
 * left out (TOML has none). Strings use JSON escapes, which TOML shares except for lone surrogates,
 * which then make a parse error: also a fine input.
 */
export function toTomlText(value: J): string | undefined {
  if (!isObj(value)) return undefined;
  const key = (k: string) => (BARE_KEY.test(k) ? k : JSON.stringify(k));
  const inline = (v: J): string | undefined => {
    if (v === null) return undefined;
    if (typeof v === "boolean" || typeof v === "string") return JSON.stringify(v);
    if (typeof v === "number")
      return Number.isInteger(v) && !Object.is(v, -0) && Math.abs(v) < 2 ** 53
        ? String(v)
        : String(v).includes("e") || String(v).includes(".")
          ? String(v)
          : `${v}.0`;
    if (Array.isArray(v))
      return `[${v
        .map(inline)
        .filter((x) => x !== undefined)
        .join(", ")}]`;
    if ("num" in v) return v.num;
    return `{ ${pairs(v.obj).join(", ")} }`;
  };
  const pairs = (entries: Array<[string, J]>) =>
    entries.flatMap(([k, x]) => {
      const written = inline(x);
      return written === undefined ? [] : [`${key(k)} = ${written}`];
    });
  return pairs(value.obj).join("\n") + "\n";
}
