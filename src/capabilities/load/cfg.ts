/**
 * Cargo's `[target.'cfg(…)'.dependencies]` keys, evaluated for each target the host builds for. The
 * logic has three values: a predicate caplint cannot know for a whole platform (`target_arch`,
 * `target_env`, a `--cfg` flag) is `undefined`, and `not`, `any` and `all` carry that uncertainty, so
 * a dependency behind it is assumed to be there ("maybe"), never reported as missing.
 */
import type { TARGETS } from "../model/types.js";

export type BuildTarget = (typeof TARGETS)[number];

/** true, false, or undefined: the predicate depends on something the platform alone does not fix. */
export type Truth = boolean | undefined;

interface TargetFacts {
  os: string;
  family: string;
  vendor?: string;
  mobile: boolean;
}

const FACTS: Record<BuildTarget, TargetFacts> = {
  linux: { os: "linux", family: "unix", mobile: false },
  macOS: { os: "macos", family: "unix", vendor: "apple", mobile: false },
  windows: { os: "windows", family: "windows", vendor: "pc", mobile: false },
  android: { os: "android", family: "unix", mobile: true },
  iOS: { os: "ios", family: "unix", vendor: "apple", mobile: true },
};

type Expression =
  | { kind: "name"; name: string }
  | { kind: "pair"; key: string; value: string }
  | { kind: "call"; fn: string; args: Expression[] };

/** Bounded: real keys are under 200 characters; a hostile one must not make parsing costly. */
const MAX_KEY_LENGTH = 4096;
const MAX_DEPTH = 32;

/**
 * Whether a `[target.<key>]` table applies on `target`: a `cfg(…)` expression, or a target triple
 * (`x86_64-pc-windows-msvc`: one architecture of one platform, so "maybe" there and false elsewhere).
 * An unreadable key is `undefined`: Cargo would refuse it, and caplint assumes nothing.
 */
export function targetKeyApplies(key: string, target: BuildTarget): Truth {
  const trimmed = key.trim();
  if (trimmed.startsWith("cfg(")) {
    const expression = parseCfg(trimmed);
    return expression ? evaluate(expression, FACTS[target]) : undefined;
  }
  const platform = platformOfTriple(trimmed);
  if (platform === undefined) return undefined;
  return platform === target ? undefined : false;
}

/** The platform a target triple builds for, when it is one of the host's five. */
export function platformOfTriple(triple: string): BuildTarget | undefined {
  if (/-apple-ios(-|$)/.test(triple)) return "iOS";
  if (/-apple-darwin$/.test(triple)) return "macOS";
  if (/-android(eabi)?$/.test(triple)) return "android";
  if (/-windows(-|$)/.test(triple)) return "windows";
  if (/-linux(-|$)/.test(triple)) return "linux";
  return undefined;
}

function evaluate(expression: Expression, facts: TargetFacts, depth = 0): Truth {
  switch (expression.kind) {
    case "name":
      switch (expression.name) {
        case "unix":
          return facts.family === "unix";
        case "windows":
          return facts.family === "windows";
        // tauri-build's aliases, as app authors mean them in Cargo.toml.
        case "desktop":
          return !facts.mobile;
        case "mobile":
          return facts.mobile;
        default:
          return undefined;
      }
    case "pair":
      switch (expression.key) {
        case "target_os":
          return facts.os === expression.value;
        case "target_family":
          return facts.family === expression.value;
        case "target_vendor":
          return facts.vendor === undefined ? undefined : facts.vendor === expression.value;
        default:
          return undefined;
      }
    case "call": {
      const values = expression.args.map((arg) => evaluate(arg, facts, depth + 1));
      if (expression.fn === "not")
        return values.length !== 1 || values[0] === undefined ? undefined : !values[0];
      if (expression.fn === "any")
        return values.includes(true) ? true : values.includes(undefined) ? undefined : false;
      if (expression.fn === "all")
        return values.includes(false) ? false : values.includes(undefined) ? undefined : true;
      return undefined;
    }
  }
}

/** Parses `cfg(<predicate>)`; undefined when the text is not one. */
export function parseCfg(text: string): Expression | undefined {
  if (text.length > MAX_KEY_LENGTH) return undefined;
  const tokens = tokenize(text);
  if (!tokens) return undefined;
  let position = 0;
  const peek = () => tokens[position];
  const expect = (token: string) => (tokens[position] === token ? (position++, true) : false);
  const predicate = (depth: number): Expression | undefined => {
    if (depth > MAX_DEPTH) return undefined;
    const name = tokens[position++];
    if (name === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
    if (peek() === "=") {
      position++;
      const value = tokens[position++];
      if (value === undefined || !value.startsWith('"')) return undefined;
      return { kind: "pair", key: name, value: value.slice(1, -1) };
    }
    if (peek() === "(") {
      position++;
      const args: Expression[] = [];
      while (peek() !== ")") {
        const arg = predicate(depth + 1);
        if (!arg) return undefined;
        args.push(arg);
        if (!expect(",")) break;
      }
      if (!expect(")")) return undefined;
      return { kind: "call", fn: name, args };
    }
    return { kind: "name", name };
  };
  if (!expect("cfg") || !expect("(")) return undefined;
  const expression = predicate(0);
  if (!expression || !expect(")") || position !== tokens.length) return undefined;
  return expression;
}

/** Identifiers, string literals (kept with their quotes) and the punctuation `( ) , =`. */
function tokenize(text: string): string[] | undefined {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) i++;
    else if ("(),=".includes(char)) {
      tokens.push(char);
      i++;
    } else if (char === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) return undefined;
      tokens.push(text.slice(i, end + 1));
      i = end + 1;
    } else {
      let end = i;
      while (end < text.length && /[A-Za-z0-9_]/.test(text[end]!)) end++;
      if (end === i) return undefined;
      tokens.push(text.slice(i, end));
      i = end;
    }
  }
  return tokens;
}
