import type { JsonPath } from "../../core/location.js";
import { isPlainObject } from "../../core/json.js";
import type { Capability } from "../model/types.js";
import { defineRule, type RuleContext } from "./types.js";

type UrlPatternClass = typeof import("urlpattern-polyfill/urlpattern").URLPattern;

export interface RemotePatternTools {
  URLPattern: UrlPatternClass;
  /** The engine's compiler; a pattern it refuses is invalid-remote-url's finding. */
  compileRemotePattern: typeof import("../engine/match/origin.js").compileRemotePattern;
}

let tools: Promise<RemotePatternTools> | undefined;
/** The engine's linear component matcher, set when the tools load (componentMatches runs after that). */
let matchComponent: typeof import("../engine/match/origin.js").componentPatternMatches | undefined;

/** Loaded on first use, so commands that never look at remote URLs do not pay for the polyfill. */
export function loadRemotePatternTools(): Promise<RemotePatternTools> {
  tools ??= Promise.all([import("urlpattern-polyfill/urlpattern"), import("../engine/match/origin.js")]).then(([polyfill, origin]) => {
    matchComponent = origin.componentPatternMatches;
    return { URLPattern: polyfill.URLPattern, compileRemotePattern: origin.compileRemotePattern };
  });
  return tools;
}

export interface RemotePattern {
  capability: Capability;
  url: string;
  path: JsonPath;
  /** The scheme and host components as the URLPattern constructor string parser reads them. */
  protocol: string;
  hostname: string;
}

/**
 * Every `remote.urls` string the host accepts. Patterns that do not parse are invalid-remote-url's
 * finding. Patterns whose regexp groups could make a backtracking matcher hang are unsafe-pattern's,
 * and skipping them keeps the polyfill's matching below safe to run; the exception is a run of `*`,
 * which matches exactly what one `*` matches, so its breadth is judged on the single-star form.
 */
export function remotePatterns(context: RuleContext, tools: RemotePatternTools): RemotePattern[] {
  const out: RemotePattern[] = [];
  // Many capabilities share a pattern: parse each distinct one once.
  const parsedOnce = new Map<string, { protocol: string; hostname: string }>();
  for (const capability of context.capabilities) {
    const remote = context.raw(capability).remote;
    if (!isPlainObject(remote) || !Array.isArray(remote.urls)) continue;
    // Only as many as the capability keeps (model/limits.ts): the rest are reported there.
    remote.urls.slice(0, capability.remote?.urls.length ?? 0).forEach((url, index) => {
      if (typeof url !== "string") return;
      const compiled = tools.compileRemotePattern(url);
      const judged = compiled.ok ? url : compiled.unsafe ? url.replace(/\*{2,}/g, "*") : undefined;
      if (judged === undefined || (judged !== url && !tools.compileRemotePattern(judged).ok)) return;
      let parsed = parsedOnce.get(judged);
      if (!parsed) {
        const pattern = new tools.URLPattern(judged);
        parsedOnce.set(judged, (parsed = { protocol: pattern.protocol, hostname: pattern.hostname }));
      }
      out.push({ capability, url, path: [...capability.source.path, "remote", "urls", index], protocol: parsed.protocol, hostname: parsed.hostname });
    });
  }
  return out;
}

const componentResults = new Map<string, boolean>();

/** Memoised: the same few patterns are asked about for every capability that lists them. */
export function componentMatches(URLPattern: UrlPatternClass, component: "protocol" | "hostname", pattern: string, value: string): boolean {
  const key = `${component}\u0000${pattern}\u0000${value}`;
  let result = componentResults.get(key);
  if (result === undefined) {
    try {
      // The polyfill only canonicalises the value (its `*` matches in linear time); the engine's linear
      // matcher decides. The polyfill's own test backtracks: a host like `example.com*.*.*…*.b` (30
      // wildcards) took minutes.
      const canonical = new URLPattern({ [component]: "*" }).exec({ [component]: value })?.[component].input;
      result = canonical !== undefined && matchComponent!(component, pattern, canonical);
    } catch {
      result = false;
    }
    if (componentResults.size > 10_000) componentResults.clear();
    componentResults.set(key, result);
  }
  return result;
}

/** A scheme no site uses: a protocol pattern matching it matches every scheme. */
const PROBE_SCHEME = "caplint-probe";
/** A host under the reserved `.invalid` domain: a hostname pattern matching it matches every host. */
const PROBE_HOST = "caplint-probe.invalid";
/** What an attacker puts where the pattern has a wildcard. */
export const WILDCARD_FILLER = "attacker";

export function matchesAnyScheme(URLPattern: UrlPatternClass, protocol: string): boolean {
  return componentMatches(URLPattern, "protocol", protocol, PROBE_SCHEME);
}

/**
 * A host the hostname pattern matches, with every wildcard, named group and regexp group replaced
 * by `filler` (optional groups kept once). Undefined when the pattern does not match its own
 * example, e.g. a regexp group that rejects the filler: then nothing can be said about it.
 */
export function exampleHost(URLPattern: UrlPatternClass, hostname: string, filler = WILDCARD_FILLER): string | undefined {
  let out = "";
  let afterPart = false;
  for (let i = 0; i < hostname.length; i++) {
    const c = hostname[i]!;
    if (c === "\\" && i + 1 < hostname.length) {
      out += hostname[++i];
      afterPart = false;
    } else if (afterPart && (c === "?" || c === "+" || c === "*")) {
      // A modifier of the group, name or wildcard before it.
      afterPart = false;
    } else if (c === "*") {
      out += filler;
      afterPart = true;
    } else if (c === ":" && /[A-Za-z_$]/.test(hostname[i + 1] ?? "")) {
      while (i + 1 < hostname.length && /[\w$]/.test(hostname[i + 1]!)) i++;
      if (hostname[i + 1] === "(") i = closingParen(hostname, i + 1);
      out += filler;
      afterPart = true;
    } else if (c === "(") {
      i = closingParen(hostname, i);
      out += filler;
      afterPart = true;
    } else if (c === "{") {
      afterPart = false;
    } else if (c === "}") {
      afterPart = true;
    } else {
      out += c;
      afterPart = false;
    }
  }
  return componentMatches(URLPattern, "hostname", hostname, out) ? out : undefined;
}

function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i;
  }
  return text.length;
}

/**
 * True when a wildcard reaches the part of the host a registrar hands out (the last two labels),
 * so anyone can register a matching site: `*.com`, `example.*`, `*example.com`. A label holds a
 * wildcard when it changes with the filler. Hosts under `localhost` resolve to the machine itself
 * and are exempt.
 */
function registrableByAnyone(example: string, otherExample: string): boolean {
  if (example === "localhost" || example.endsWith(".localhost")) return false;
  const labels = example.split(".").slice(-2);
  const otherLabels = otherExample.split(".").slice(-2);
  return labels.length !== otherLabels.length || labels.some((label, index) => label !== otherLabels[index]);
}

export default defineRule({
  id: "broad-remote",
  description: "Report `remote.urls` patterns that match any scheme or any host, which lets arbitrary web pages use the capability.",
  category: "security",
  security: { severity: 8.1, cwe: [942] },
  defaultSeverity: "warning",
  fixable: false,
  async check(context) {
    const tools = await loadRemotePatternTools();
    const { URLPattern } = tools;
    for (const remote of remotePatterns(context, tools)) {
      const anyScheme = matchesAnyScheme(URLPattern, remote.protocol);
      const anyHost = componentMatches(URLPattern, "hostname", remote.hostname, PROBE_HOST);
      const example = anyHost ? undefined : exampleHost(URLPattern, remote.hostname);
      const otherExample = example === undefined ? undefined : exampleHost(URLPattern, remote.hostname, "x");
      const openHost = example !== undefined && otherExample !== undefined && registrableByAnyone(example, otherExample);
      if (!anyScheme && !anyHost && !openHost) continue;
      const problems: string[] = [];
      const fixes: string[] = [];
      if (anyScheme) {
        problems.push("any scheme");
        fixes.push(`write the scheme, e.g. "${remote.url.replace(/^[^:/]*:\/\//, "https://")}"`);
      }
      if (anyHost) problems.push("any host");
      else if (openHost) problems.push(`hosts anyone can register, such as "${example}"`);
      if (anyHost || openHost) fixes.push('name the hosts, e.g. "https://app.example.com", or a subdomain wildcard of a domain you control, e.g. "https://*.example.com"');
      const who = anyHost ? "every web site" : openHost ? "sites outside your control" : "pages over plain http or any custom scheme";
      context.report({
        at: remote.capability.source,
        path: remote.path,
        message: `remote URL pattern "${remote.url}" matches ${problems.join(" and ")}, so ${who} can use capability "${remote.capability.identifier}"`,
        hint: fixes.join("; "),
      });
    }
  },
});
