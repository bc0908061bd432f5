/**
 * Remote origins: `remote.urls` entries are URLPattern constructor strings (host-acl-semantics §3.6).
 *
 * The pattern is parsed and validated by `urlpattern-polyfill`, which yields the canonical pattern of
 * each component. The host then widens an empty or `/` pathname and an empty search or hash to `*`
 * (the port is never widened). Matching does not use the polyfill's RegExps: JavaScript backtracks, so
 * `/*a*a*a*b` or a custom group like `(a+)+` could hang on a long URL, while the host's Rust engine is
 * linear. Each component's pattern is re-parsed into URLPattern parts, turned into the regular
 * expression the URLPattern spec prescribes, and decided by the linear NFA in `regex-nfa.ts`.
 */
import { createRequire } from "node:module";
import { BoundedMemo } from "../../../core/bounded-memo.js";
import { work } from "../../work.js";
import {
  hasNestedRepetition,
  Nfa,
  parseRegex,
  RegexUnsupportedError,
  type RegexNode,
} from "./regex-nfa.js";

/** Where a calling page was loaded from: the app itself, or a remote URL. */
export type Origin = { kind: "local" } | { kind: "remote"; url: string };

export const LOCAL_ORIGIN: Origin = Object.freeze({ kind: "local" });

export type RemotePattern =
  | { ok: true; pattern: string; test(url: string): boolean }
  | { ok: false; pattern: string; message: string; unsafe: boolean };

export interface CompileRemoteOptions {
  /**
   * Accept patterns whose regexp groups would backtrack catastrophically in a JavaScript engine.
   * Matching here is linear either way; the resolver uses this so access answers follow the host,
   * while lint callers keep the default and report the pattern.
   */
  allowUnsafe?: boolean;
}

/** A URL pattern's components, in the order URLPattern lists them. */
export const URL_PATTERN_COMPONENTS = [
  "protocol",
  "username",
  "password",
  "hostname",
  "port",
  "pathname",
  "search",
  "hash",
] as const;
type Component = (typeof URL_PATTERN_COMPONENTS)[number];
type ComponentValues = Record<Component, string>;

const SPECIAL_SCHEMES = ["ftp", "file", "http", "https", "ws", "wss"];

/** Patterns come from the user's files: at most this many compiled ones are kept per mode. */
const MAX_CACHED_PATTERNS = 2048;
const compiledPatterns = {
  strict: new BoundedMemo<string, RemotePattern>(MAX_CACHED_PATTERNS),
  lenient: new BoundedMemo<string, RemotePattern>(MAX_CACHED_PATTERNS),
};
const compileStrict = (pattern: string) => compile(pattern, false);
const compileLenient = (pattern: string) => compile(pattern, true);

/** Compiles a `remote.urls` entry; results are cached per pattern string. */
export function compileRemotePattern(
  pattern: string,
  options: CompileRemoteOptions = {},
): RemotePattern {
  return options.allowUnsafe
    ? compiledPatterns.lenient.get(pattern, compileLenient)
    : compiledPatterns.strict.get(pattern, compileStrict);
}

/** Whether a calling page at `url` is covered by the pattern; false for an invalid pattern or URL. */
export function remoteUrlMatches(pattern: string, url: string): boolean {
  const compiled = compileRemotePattern(pattern, { allowUnsafe: true });
  return compiled.ok && compiled.test(url);
}

/**
 * Whether a protocol or hostname component pattern, in the canonical form the polyfill gives it
 * (`new URLPattern(url).hostname`), matches a canonical component value. Linear, like `test`; the
 * polyfill's own matching backtracks. Throws RegexUnsupportedError for a pattern it cannot read.
 */
export function componentPatternMatches(
  component: "protocol" | "hostname",
  pattern: string,
  value: string,
): boolean {
  // The automaton `compile` makes for this component of a remote pattern: the danger judge and the
  // remote rules ask about the patterns the resolution compiled already.
  const options = COMPONENT_OPTIONS[component];
  return automatonOf(compiledComponent(pattern, options), options).matches(value);
}

type URLPatternClass = typeof import("urlpattern-polyfill/urlpattern").URLPattern;
/** The polyfill's class, loaded once per process (code, not data: nothing of a run stays in it). */
let URLPatternImpl: URLPatternClass | undefined;

/** Whether this process has loaded the polyfill (a test checks that loading the danger tools does not). */
export function urlPatternPolyfillLoaded(): boolean {
  return URLPatternImpl !== undefined;
}

/**
 * Node 20 has no global URLPattern. The polyfill is loaded (synchronously, through its CommonJS build)
 * the first time a remote pattern is compiled or judged (the danger tools take the class from here:
 * dangers/url-reach.ts), so runs without `remote.urls` never load it.
 */
export function urlPatternClass(): URLPatternClass {
  URLPatternImpl ??= (
    createRequire(import.meta.url)("urlpattern-polyfill/urlpattern") as {
      URLPattern: URLPatternClass;
    }
  ).URLPattern;
  return URLPatternImpl;
}

/** What the URLPattern constructor makes of a constructor string: its components, or why it refuses it. */
export type ParsedUrlPattern =
  { ok: true; components: Readonly<ComponentValues> } | { ok: false; message: string };

const parsedPatterns = new BoundedMemo<string, ParsedUrlPattern>(MAX_CACHED_PATTERNS);

/**
 * The components of a URLPattern constructor string as the polyfill canonicalises them, parsed once
 * per string for the whole run: the polyfill's constructor costs about a millisecond (its tokenizer's
 * Unicode regular expressions), and the strict and lenient compilers, remote-url rules of every app and
 * the danger judge each ask about the same few patterns.
 */
export function parseUrlPattern(pattern: string): ParsedUrlPattern {
  return parsedPatterns.get(pattern, parseUncached);
}

/**
 * A constructor string whose components the polyfill would give back as written: a lowercase scheme of
 * letters and digits (optionally followed by `{s}?`, as in `http{s}?`), `://`, a host of `*` or plain lowercase labels, an optional `*` or numeric port,
 * and an optional path of plain segments ending in a segment, `/` or `/*`. No character in it is
 * pattern syntax that the polyfill's parser would rewrite (groups, modifiers, escapes), and none is
 * changed by URL canonicalisation, except what `simpleComponents` refuses: IP numbers, punycode
 * labels, default ports and the `file` scheme. A real app's `remote.urls` are nearly all of this shape
 * (`https://*.example.com/*`, `http://localhost:*`), and the polyfill's constructor is slow on a cold
 * run: its parser and canonicalisers were about a tenth of the first corpus copy's rules cost. A
 * test compares this with the polyfill over every combination of these shapes.
 */
const SIMPLE_URL_PATTERN =
  /^([a-z][a-z0-9]*(?:\{s\}\?)?):\/\/((?:\*|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.(?:\*|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?))*)(?::(\*|[1-9][0-9]{0,4}))?(\/(?:[A-Za-z0-9_-]+\/)*(?:[A-Za-z0-9_-]+|\*)?)?$/;

/** The default port of each special scheme: a pattern that names it gets an empty port. */
const DEFAULT_PORTS: Readonly<Record<string, string>> = {
  ftp: "21",
  http: "80",
  https: "443",
  ws: "80",
  wss: "443",
};

/** The components of a simple constructor string (`SIMPLE_URL_PATTERN`) without the polyfill; undefined for any other. */
export function simpleComponents(pattern: string): Readonly<ComponentValues> | undefined {
  const match = SIMPLE_URL_PATTERN.exec(pattern);
  if (match === null) return undefined;
  const protocol = match[1]!;
  const hostname = match[2]!;
  const port = match[3] ?? "";
  if (protocol === "file" || !plainHost(hostname)) return undefined;
  // A numeric port after an optional `s` (`http{s}?`) is left to the polyfill, as is a default port.
  if (
    port !== "*" &&
    port !== "" &&
    (Number(port) > 65535 || DEFAULT_PORTS[protocol] === port || protocol.endsWith("?"))
  )
    return undefined;
  return {
    protocol,
    username: "*",
    password: "*",
    hostname,
    port,
    pathname: match[4] ?? "*",
    search: "*",
    hash: "*",
  };
}

const PLAIN_HOST = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;
const PLAIN_SCHEME = /^[a-z][a-z0-9+.-]*$/;

/**
 * A protocol or hostname value as the polyfill canonicalises it (`new URLPattern({ hostname: "*" })
 * .exec({ hostname: value })`), when it is its own canonical form: a lowercase scheme, or a host of
 * plain lowercase labels that `plainHost` accepts. Undefined for any other value (the caller asks the
 * polyfill): the danger judge's probes and example hosts are of this shape, and answering them here
 * spares the polyfill's first, slow calls.
 */
export function plainComponentValue(
  component: "protocol" | "hostname",
  value: string,
): string | undefined {
  if (component === "protocol") return PLAIN_SCHEME.test(value) ? value : undefined;
  return PLAIN_HOST.test(value) && plainHost(value) ? value : undefined;
}

/**
 * Whether a host of plain lowercase labels (or `*`) is its own canonical form: no punycode label, no
 * hexadecimal-looking label, and no decimal label unless the whole host is four decimal octets as
 * written (the polyfill reads the fixed text around a wildcard as an IPv4 number: `1.2.3.*` becomes
 * `1.2.0.3*`).
 */
function plainHost(hostname: string): boolean {
  const labels = hostname.split(".");
  let numeric = false;
  for (const label of labels) {
    if (label.startsWith("xn--") || label.startsWith("0x")) return false;
    if (/^[0-9]+$/.test(label)) numeric = true;
  }
  return (
    !numeric ||
    (labels.length === 4 &&
      labels.every((label) => /^(?:0|[1-9][0-9]{0,2})$/.test(label) && Number(label) <= 255))
  );
}

function parseUncached(pattern: string): ParsedUrlPattern {
  work.urlPatternsParsed++;
  const simple = simpleComponents(pattern);
  if (simple !== undefined) return { ok: true, components: simple };
  const URLPattern = urlPatternClass();
  work.urlPatternsConstructed++;
  let parsed: InstanceType<URLPatternClass>;
  try {
    parsed = new URLPattern(pattern);
  } catch (error) {
    return { ok: false, message: stripPolyfillPrefix((error as Error).message) };
  }
  const components = {} as ComponentValues;
  for (const component of URL_PATTERN_COMPONENTS) components[component] = parsed[component];
  return { ok: true, components };
}

function compile(pattern: string, allowUnsafe: boolean): RemotePattern {
  const parsed = parseUrlPattern(pattern);
  if (!parsed.ok)
    return { ok: false, pattern, unsafe: false, message: `invalid URL pattern: ${parsed.message}` };
  const components = { ...parsed.components };
  // The host's widening of components the constructor string left empty (acl/mod.rs, RemoteUrlPattern).
  if (components.pathname === "" || components.pathname === "/") components.pathname = "*";
  if (components.search === "") components.search = "*";
  if (components.hash === "") components.hash = "*";

  const matchers = {} as Record<Component, Nfa>;
  try {
    for (const component of URL_PATTERN_COMPONENTS) {
      const options =
        component === "pathname"
          ? pathnameOptions(matchers.protocol)
          : COMPONENT_OPTIONS[component];
      const compiled = compiledComponent(components[component], options);
      const parts = settle(compiled.parts);
      if (!allowUnsafe) {
        const unsafe = settle((compiled.unsafe ??= attempt(() => findUnsafePart(parts))));
        if (unsafe) {
          return {
            ok: false,
            pattern,
            unsafe: true,
            message: `unsafe pattern: the ${component} part ${JSON.stringify(unsafe)} repeats a repetition or an alternation, which can take exponential time in a backtracking regular-expression engine`,
          };
        }
      }
      matchers[component] = automatonOf(compiled, options);
    }
  } catch (error) {
    if (error instanceof RegexUnsupportedError) {
      return {
        ok: false,
        pattern,
        unsafe: false,
        message: `invalid URL pattern: ${error.message}`,
      };
    }
    throw error;
  }

  return {
    ok: true,
    pattern,
    test(url: string): boolean {
      const values = urlComponents(url);
      if (!values) return false;
      for (const component of URL_PATTERN_COMPONENTS)
        if (!matchers[component].matches(values[component])) return false;
      return true;
    },
  };
}

/** What a step of a component's compilation made, or what it threw (thrown again to each asker). */
type Outcome<T> = { value: T } | { error: unknown };

function attempt<T>(make: () => T): Outcome<T> {
  try {
    return { value: make() };
  } catch (error) {
    return { error };
  }
}

function settle<T>(outcome: Outcome<T>): T {
  if ("error" in outcome) throw outcome.error;
  return outcome.value;
}

/** One component pattern's parts, unsafe part (asked by strict compiles only) and automaton. */
interface ComponentCompilation {
  parts: Outcome<Part[]>;
  unsafe?: Outcome<string | undefined>;
  nfa?: Outcome<Nfa>;
}

/**
 * Each component pattern compiled once per run, whatever remote pattern it belongs to: every simple
 * pattern has the username, password, search and hash `*`, and an app's patterns share their scheme and
 * path (`https`, `/*`). Each step's outcome is what compiling the component anew would give (an
 * automaton is only read, `Nfa.matches`), so sharing it changes no answer, only its cost.
 */
const compiledComponents = new BoundedMemo<string, ComponentCompilation>(MAX_CACHED_PATTERNS);

function compiledComponent(text: string, options: ParseOptions): ComponentCompilation {
  return compiledComponents.get(
    `${options.delimiter}\u0001${options.prefixes}\u0000${text}`,
    () => {
      work.urlComponentsCompiled++;
      return { parts: attempt(() => parsePatternString(text, options)) };
    },
  );
}

/** The component's automaton, made on first ask; throws what parsing or building it threw. */
function automatonOf(compiled: ComponentCompilation, options: ParseOptions): Nfa {
  return settle(
    (compiled.nfa ??= attempt(
      () => new Nfa(parseRegex(partsToRegexSource(settle(compiled.parts), options))),
    )),
  );
}

function stripPolyfillPrefix(message: string): string {
  return message.replace(/^Failed to construct 'URLPattern': /, "");
}

/** The components of a page URL as URLPattern compares them (WHATWG URL parsing first). */
function urlComponents(input: string): ComponentValues | undefined {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return undefined;
  }
  return {
    protocol: url.protocol.slice(0, -1),
    username: url.username,
    password: url.password,
    hostname: url.hostname,
    port: url.port,
    pathname: url.pathname,
    search: url.search.slice(1),
    hash: url.hash.slice(1),
  };
}

// ---------------------------------------------------------------------------------------------
// URLPattern pattern strings (https://urlpattern.spec.whatwg.org/#parsing-patterns), as the spec
// and the polyfill define them. Input here is always a canonical component pattern produced by the
// polyfill, so syntax errors cannot occur in practice; they still throw rather than guess.

interface ParseOptions {
  delimiter: string;
  prefixes: string;
}

const DEFAULT_OPTIONS: ParseOptions = { delimiter: "", prefixes: "" };
const COMPONENT_OPTIONS: Record<Component, ParseOptions> = {
  protocol: DEFAULT_OPTIONS,
  username: DEFAULT_OPTIONS,
  password: DEFAULT_OPTIONS,
  hostname: { delimiter: ".", prefixes: "" },
  port: DEFAULT_OPTIONS,
  pathname: DEFAULT_OPTIONS,
  search: DEFAULT_OPTIONS,
  hash: DEFAULT_OPTIONS,
};

/** Paths of special-scheme URLs are `/`-segmented; when the protocol pattern can match one, so is the pattern. */
function pathnameOptions(protocol: Nfa): ParseOptions {
  let options = pathnameOptionsOf.get(protocol);
  if (options === undefined)
    pathnameOptionsOf.set(
      protocol,
      (options = SPECIAL_SCHEMES.some((scheme) => protocol.matches(scheme))
        ? SEGMENTED_PATH_OPTIONS
        : DEFAULT_OPTIONS),
    );
  return options;
}

const SEGMENTED_PATH_OPTIONS: ParseOptions = { delimiter: "/", prefixes: "/" };
/** Per protocol automaton (shared by the patterns with that protocol: `compiledComponent`), its pathname's options. */
const pathnameOptionsOf = new WeakMap<Nfa, ParseOptions>();

const enum PartType {
  FixedText,
  Regexp,
  SegmentWildcard,
  FullWildcard,
}

const enum Modifier {
  None,
  Optional,
  ZeroOrMore,
  OneOrMore,
}

interface Part {
  type: PartType;
  prefix: string;
  value: string;
  suffix: string;
  modifier: Modifier;
}

type TokenType =
  | "asterisk"
  | "other-modifier"
  | "escaped-char"
  | "open"
  | "close"
  | "name"
  | "regexp"
  | "char"
  | "end";
interface Token {
  type: TokenType;
  value: string;
}

/**
 * Made on first use: V8 builds a `\p{...}` class from Unicode's tables when the literal is evaluated,
 * about 1.5 M instructions each, at load time in every run though only a pattern's `:name` needs them.
 */
let names: { start: RegExp; continue: RegExp } | undefined;
const namePatterns = () =>
  (names ??= { start: /[$_\p{ID_Start}]/u, continue: /[$_\u200C\u200D\p{ID_Continue}]/u });

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === "*") tokens.push({ type: "asterisk", value: input[i++]! });
    else if (c === "+" || c === "?") tokens.push({ type: "other-modifier", value: input[i++]! });
    else if (c === "\\") {
      if (i + 1 >= input.length)
        throw new RegexUnsupportedError(`trailing backslash in ${JSON.stringify(input)}`);
      tokens.push({ type: "escaped-char", value: input[i + 1]! });
      i += 2;
    } else if (c === "{") tokens.push({ type: "open", value: input[i++]! });
    else if (c === "}") tokens.push({ type: "close", value: input[i++]! });
    else if (c === ":") {
      let j = i + 1;
      const name = namePatterns();
      while (j < input.length && (j === i + 1 ? name.start : name.continue).test(input[j]!)) j++;
      if (j === i + 1)
        throw new RegexUnsupportedError(
          `missing parameter name at ${i} in ${JSON.stringify(input)}`,
        );
      tokens.push({ type: "name", value: input.slice(i + 1, j) });
      i = j;
    } else if (c === "(") {
      let depth = 1;
      let regexp = "";
      let j = i + 1;
      while (j < input.length) {
        if (input[j] === "\\") {
          regexp += input.slice(j, j + 2);
          j += 2;
          continue;
        }
        if (input[j] === ")") {
          depth--;
          if (depth === 0) {
            j++;
            break;
          }
        } else if (input[j] === "(") depth++;
        regexp += input[j++];
      }
      if (depth !== 0 || regexp === "")
        throw new RegexUnsupportedError(
          `unbalanced regexp group at ${i} in ${JSON.stringify(input)}`,
        );
      tokens.push({ type: "regexp", value: regexp });
      i = j;
    } else tokens.push({ type: "char", value: input[i++]! });
  }
  tokens.push({ type: "end", value: "" });
  return tokens;
}

function escapeRegexpString(text: string): string {
  return text.replace(/([.+*?^${}()[\]|/\\])/g, "\\$1");
}

const FULL_WILDCARD_REGEXP = ".*";
const segmentWildcardRegexp = (options: ParseOptions) =>
  `[^${escapeRegexpString(options.delimiter)}]+?`;

function parsePatternString(input: string, options: ParseOptions): Part[] {
  const tokens = tokenize(input);
  const segmentWildcard = segmentWildcardRegexp(options);
  const parts: Part[] = [];
  let index = 0;
  let pendingFixed = "";

  const tryConsume = (type: TokenType): string | undefined =>
    tokens[index]?.type === type ? tokens[index++]!.value : undefined;
  const tryConsumeModifier = () => tryConsume("other-modifier") ?? tryConsume("asterisk");
  const mustConsume = (type: TokenType): string => {
    const value = tryConsume(type);
    if (value === undefined)
      throw new RegexUnsupportedError(
        `unexpected ${tokens[index]?.type} in ${JSON.stringify(input)}, expected ${type}`,
      );
    return value;
  };
  const consumeText = () => {
    let text = "";
    for (
      let value = tryConsume("char") ?? tryConsume("escaped-char");
      value !== undefined;
      value = tryConsume("char") ?? tryConsume("escaped-char")
    )
      text += value;
    return text;
  };
  const flushPendingFixed = () => {
    if (pendingFixed)
      parts.push({
        type: PartType.FixedText,
        prefix: "",
        value: pendingFixed,
        suffix: "",
        modifier: Modifier.None,
      });
    pendingFixed = "";
  };
  const addPart = (
    prefix: string,
    name: string | undefined,
    regexpOrWildcard: string | undefined,
    suffix: string,
    modifierToken: string | undefined,
  ) => {
    const modifier =
      modifierToken === "?"
        ? Modifier.Optional
        : modifierToken === "*"
          ? Modifier.ZeroOrMore
          : modifierToken === "+"
            ? Modifier.OneOrMore
            : Modifier.None;
    if (name === undefined && regexpOrWildcard === undefined && modifier === Modifier.None) {
      pendingFixed += prefix;
      return;
    }
    flushPendingFixed();
    if (name === undefined && regexpOrWildcard === undefined) {
      if (prefix)
        parts.push({ type: PartType.FixedText, prefix: "", value: prefix, suffix: "", modifier });
      return;
    }
    const regexp =
      regexpOrWildcard === undefined
        ? segmentWildcard
        : regexpOrWildcard === "*"
          ? FULL_WILDCARD_REGEXP
          : regexpOrWildcard;
    const type =
      regexp === segmentWildcard
        ? PartType.SegmentWildcard
        : regexp === FULL_WILDCARD_REGEXP
          ? PartType.FullWildcard
          : PartType.Regexp;
    parts.push({ type, prefix, value: type === PartType.Regexp ? regexp : "", suffix, modifier });
  };

  while (index < tokens.length) {
    const charToken = tryConsume("char");
    const nameToken = tryConsume("name");
    let regexpOrWildcard = tryConsume("regexp");
    if (nameToken === undefined && regexpOrWildcard === undefined)
      regexpOrWildcard = tryConsume("asterisk");
    if (nameToken !== undefined || regexpOrWildcard !== undefined) {
      let prefix = charToken ?? "";
      if (!options.prefixes.includes(prefix)) {
        pendingFixed += prefix;
        prefix = "";
      }
      flushPendingFixed();
      addPart(prefix, nameToken, regexpOrWildcard, "", tryConsumeModifier());
      continue;
    }
    const fixed = charToken ?? tryConsume("escaped-char");
    if (fixed !== undefined) {
      pendingFixed += fixed;
      continue;
    }
    if (tryConsume("open") !== undefined) {
      const prefix = consumeText();
      const name = tryConsume("name");
      let regexp = tryConsume("regexp");
      if (name === undefined && regexp === undefined) regexp = tryConsume("asterisk");
      const suffix = consumeText();
      mustConsume("close");
      addPart(prefix, name, regexp, suffix, tryConsumeModifier());
      continue;
    }
    flushPendingFixed();
    mustConsume("end");
  }
  return parts;
}

const modifierText = (modifier: Modifier) => ["", "?", "*", "+"][modifier]!;

/** The spec's "generate a regular expression and name list", anchored at both ends. */
function partsToRegexSource(parts: Part[], options: ParseOptions): string {
  let result = "^";
  for (const part of parts) {
    if (part.type === PartType.FixedText) {
      result +=
        part.modifier === Modifier.None
          ? escapeRegexpString(part.value)
          : `(?:${escapeRegexpString(part.value)})${modifierText(part.modifier)}`;
      continue;
    }
    const regexp = partRegexp(part, options);
    const modifier = modifierText(part.modifier);
    const single = part.modifier === Modifier.None || part.modifier === Modifier.Optional;
    if (!part.prefix && !part.suffix) {
      result += single ? `(${regexp})${modifier}` : `((?:${regexp})${modifier})`;
      continue;
    }
    const prefix = escapeRegexpString(part.prefix);
    const suffix = escapeRegexpString(part.suffix);
    if (single) {
      result += `(?:${prefix}(${regexp})${suffix})${modifier}`;
      continue;
    }
    result += `(?:${prefix}((?:${regexp})(?:${suffix}${prefix}(?:${regexp}))*)${suffix})`;
    if (part.modifier === Modifier.ZeroOrMore) result += "?";
  }
  return result + "$";
}

function partRegexp(part: Part, options: ParseOptions): string {
  if (part.type === PartType.SegmentWildcard) return segmentWildcardRegexp(options);
  if (part.type === PartType.FullWildcard) return FULL_WILDCARD_REGEXP;
  return part.value;
}

/**
 * The first part that a backtracking engine could take exponential time on, as pattern text: a
 * regexp group or `*` wildcard with nested repetition once its own `+`/`*` modifier is counted.
 * A repeated `:name` segment is exempt: its delimiter makes every split unambiguous (`/:path+`).
 */
function findUnsafePart(parts: Part[]): string | undefined {
  for (const part of parts) {
    if (part.type === PartType.FixedText) continue;
    if (part.type === PartType.SegmentWildcard && (part.prefix || part.suffix)) continue;
    let body: RegexNode = parseRegex(
      part.type === PartType.Regexp
        ? part.value
        : part.type === PartType.FullWildcard
          ? ".*"
          : "[^/]+",
    );
    const repeated = part.modifier === Modifier.ZeroOrMore || part.modifier === Modifier.OneOrMore;
    if (repeated)
      body = {
        type: "repeat",
        body,
        min: part.modifier === Modifier.OneOrMore ? 1 : 0,
        max: Infinity,
        source: "",
      };
    if (hasNestedRepetition(body)) return describePart(part);
  }
  return undefined;
}

function describePart(part: Part): string {
  const core =
    part.type === PartType.Regexp
      ? `(${part.value})`
      : part.type === PartType.FullWildcard
        ? "*"
        : "(segment)";
  const text = part.prefix || part.suffix ? `{${part.prefix}${core}${part.suffix}}` : core;
  return text + modifierText(part.modifier);
}
