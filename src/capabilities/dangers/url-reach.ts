/**
 * How far a URL pattern reaches, decided with the engine's own linear URL-pattern matcher rather than a
 * list of spellings: does it match hosts the app cannot own (a reserved `.invalid` host, a host anyone
 * can register, a bare IP address, the cloud metadata address), or only loopback? One helper serves
 * `remote.urls` (broad-remote, insecure-remote, dangerous-permission's escalation) and the http plugin's
 * URL scopes (dangerous-permission), so `https://*.*`, `*://**:*` (any path) and `https://*.anthropic.*`
 * are judged as broad as `https://*`.
 */
import { BoundedMemo } from "../../core/bounded-memo.js";

type UrlPatternClass = typeof import("urlpattern-polyfill/urlpattern").URLPattern;

export interface RemotePatternTools {
  URLPattern: UrlPatternClass;
  /** The engine's compiler; a pattern it refuses is invalid-remote-url's finding. */
  compileRemotePattern: typeof import("../engine/match/origin.js").compileRemotePattern;
  /** The polyfill's components of a constructor string, parsed once per string for the run. */
  parseUrlPattern: typeof import("../engine/match/origin.js").parseUrlPattern;
}

let tools: Promise<RemotePatternTools> | undefined;
/** The engine's linear component matcher, set when the tools load (componentMatches runs after that). */
let matchComponent: typeof import("../engine/match/origin.js").componentPatternMatches | undefined;
/** The engine's shared parse of constructor strings, set when the tools load (urlReach runs after that). */
let parseUrlPattern: typeof import("../engine/match/origin.js").parseUrlPattern | undefined;
/** The engine's canonical form of a plain protocol or host value, set when the tools load. */
let plainComponentValue: typeof import("../engine/match/origin.js").plainComponentValue | undefined;

/** Loaded on first use, so commands that never look at remote URLs do not pay for the polyfill. */
export function loadRemotePatternTools(): Promise<RemotePatternTools> {
  tools ??= import("../engine/match/origin.js").then((origin) => {
    matchComponent = origin.componentPatternMatches;
    parseUrlPattern = origin.parseUrlPattern;
    plainComponentValue = origin.plainComponentValue;
    return {
      // The engine's copy of the polyfill, loaded when a pattern is first judged: its module builds
      // Unicode regular expressions as it loads (about 5 M instructions), and the rules and the danger
      // judge load these tools in every check, with remote URLs or not.
      get URLPattern() {
        return origin.urlPatternClass();
      },
      compileRemotePattern: origin.compileRemotePattern,
      parseUrlPattern: origin.parseUrlPattern,
    };
  });
  return tools;
}

/** Patterns and values come from the user's files: at most this many answers are kept. */
const MAX_COMPONENT_RESULTS = 10_000;
const componentResults = new BoundedMemo<string, boolean>(MAX_COMPONENT_RESULTS);
/**
 * `{ protocol: "*" }` and `{ hostname: "*" }`, built once: a URLPattern costs far more to construct than
 * to run. Keyed on the component name, so it never holds more than those two.
 */
const canonicalizers = new Map<string, InstanceType<UrlPatternClass>>();

/** Memoised: the same few patterns are asked about for every capability that lists them. */
export function componentMatches(
  URLPattern: UrlPatternClass,
  component: "protocol" | "hostname",
  pattern: string,
  value: string,
): boolean {
  return componentResults.get(`${component}\u0000${pattern}\u0000${value}`, () => {
    try {
      // The polyfill only canonicalises the value (its `*` matches in linear time); the engine's linear
      // matcher decides. The polyfill's own test backtracks: a host like `example.com*.*.*…*.b` (30
      // wildcards) took minutes.
      // A plain value (the probes, most example hosts) is its own canonical form: no polyfill call.
      let canonical = plainComponentValue!(component, value);
      if (canonical === undefined) {
        let canonicalizer = canonicalizers.get(component);
        if (!canonicalizer)
          canonicalizers.set(component, (canonicalizer = new URLPattern({ [component]: "*" })));
        canonical = canonicalizer.exec({ [component]: value })?.[component].input;
      }
      return canonical !== undefined && matchComponent!(component, pattern, canonical);
    } catch {
      return false;
    }
  });
}

/** A scheme no site uses: a protocol pattern matching it matches every scheme. */
const PROBE_SCHEME = "caplint-probe";
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
export function exampleHost(
  URLPattern: UrlPatternClass,
  hostname: string,
  filler = WILDCARD_FILLER,
): string | undefined {
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

/** A host under the reserved `.invalid` domain: a hostname pattern matching it matches every host. */
const PROBE_HOST = "caplint-probe.invalid";
/** An address from TEST-NET-3 (RFC 5737): a pattern matching it reaches arbitrary IP addresses. */
const PROBE_IP = "203.0.113.7";
/** The link-local address cloud providers serve instance credentials on. */
export const METADATA_HOST = "169.254.169.254";

export interface HostReach {
  /** The protocol pattern matches every scheme. */
  anyScheme: boolean;
  /** It matches a host nobody can own, so every host. */
  anyHost: boolean;
  /** A host anyone can register that it matches (a wildcard in the last two labels), when not `anyHost`. */
  registrable?: string;
  /** It matches an arbitrary public IP address. */
  anyIp: boolean;
  /** It matches the cloud metadata address. */
  metadata: boolean;
  /** Every host it matches is loopback (localhost, 127.0.0.0/8, [::1]). */
  loopbackOnly: boolean;
  /** A host it matches, wildcards filled with "attacker"; undefined when that cannot be built. */
  example?: string;
}

/** Whether the reach is as broad as `https://*`: pages or servers the app does not control. */
export function isForeignReach(reach: HostReach): boolean {
  return reach.anyHost || reach.registrable !== undefined || reach.anyIp;
}

/** Words for a broad reach: "any host", "hosts anyone can register, such as …", "any IP address". */
export function describeReach(reach: HostReach): string {
  if (reach.anyHost) return "any hostname";
  const parts: string[] = [];
  // An address pattern (`203.0.*`) fills to a mangled host: its IP example says more.
  if (reach.registrable !== undefined && !(reach.anyIp && /^\d/.test(reach.registrable)))
    parts.push(`hosts anyone can register, such as "${reach.registrable}"`);
  if (reach.anyIp)
    parts.push(
      `IP addresses of other machines, such as "${PROBE_IP}"${reach.metadata ? ` (and the cloud metadata address ${METADATA_HOST})` : ""}`,
    );
  return parts.join(" and ");
}

/** The reach of a protocol and hostname component pattern, in the canonical form the polyfill gives. */
export function hostReach(
  URLPattern: UrlPatternClass,
  protocol: string,
  hostname: string,
): HostReach {
  const anyScheme = matchesAnyScheme(URLPattern, protocol);
  const anyHost = componentMatches(URLPattern, "hostname", hostname, PROBE_HOST);
  const anyIp = componentMatches(URLPattern, "hostname", hostname, PROBE_IP);
  const metadata = componentMatches(URLPattern, "hostname", hostname, METADATA_HOST);
  const example = exampleHost(URLPattern, hostname);
  const otherExample = example === undefined ? undefined : exampleHost(URLPattern, hostname, "x");
  const registrable =
    !anyHost &&
    example !== undefined &&
    otherExample !== undefined &&
    registrableByAnyone(example, otherExample)
      ? example
      : undefined;
  const loopbackOnly =
    !anyHost &&
    !anyIp &&
    example !== undefined &&
    otherExample !== undefined &&
    isLoopback(example) &&
    isLoopback(otherExample);
  return { anyScheme, anyHost, registrable, anyIp, metadata, loopbackOnly, example };
}

/** URLs come from the user's files: at most this many reaches are kept. */
const MAX_URL_REACHES = 10_000;
const urlReaches = new BoundedMemo<string, HostReach | undefined>(MAX_URL_REACHES);

/**
 * The reach of a URLPattern constructor string (a `remote.urls` entry or an http scope URL); undefined
 * when it does not parse. A run of `*` is read as one `*`, which matches the same URLs.
 */
export function urlReach(URLPattern: UrlPatternClass, url: string): HostReach | undefined {
  return urlReaches.get(url, () => {
    try {
      const parsed = parseUrlPattern!(url.replace(/\*{2,}/g, "*"));
      if (!parsed.ok) return undefined;
      return hostReach(URLPattern, parsed.components.protocol, parsed.components.hostname);
    } catch {
      return undefined;
    }
  });
}

/** Hosts that never leave the machine: `localhost` and its subdomains, 127.0.0.0/8 and `[::1]`. */
export function isLoopback(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "[::1]" || host === "::1") return true;
  const octets = host.split(".");
  return (
    octets.length === 4 &&
    octets[0] === "127" &&
    octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255)
  );
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
  return (
    labels.length !== otherLabels.length ||
    labels.some((label, index) => label !== otherLabels[index])
  );
}

/**
 * A lowercase scheme, `://`, then a host of plain lowercase labels whose last starts with a letter (so
 * no IP address, which the URL parser reads as a number), an optional numeric port, and the path or
 * the end: the pattern reaches that one host, whatever its path, so it is not broad. Such scope URLs
 * (`https://api.example.com/*`) are decided without the URL-pattern parser, whose first calls are a
 * run's slowest (the polyfill's code is compiled then).
 */
const LITERAL_HOST_URL =
  /^[a-z][a-z0-9.-]*:\/\/((?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*)(?::\d+)?(?:\/|$)/;

/**
 * Whether a URL pattern names one literal host that no probe of `hostReach` can be (see
 * LITERAL_HOST_URL): then its reach is not foreign (`isForeignReach`), and nothing needs parsing.
 */
export function reachesOneLiteralHost(url: string): boolean {
  const host = LITERAL_HOST_URL.exec(url)?.[1];
  return host !== undefined && host !== PROBE_HOST;
}
