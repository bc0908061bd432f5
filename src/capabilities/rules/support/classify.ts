import type { Catalog } from "../../catalog/catalog.js";
import { checkIdentifier } from "../../catalog/identifier.js";
import { APP_KEY } from "../../catalog/types.js";

export type IdentifierVerdict =
  | { kind: "invalid" }
  | { kind: "known" }
  /** The manifest exists but has no such name (or the prefix is a pre-release name of a core area). */
  | { kind: "unknown-permission"; key: string | undefined; base: string }
  /** No manifest defines the prefix; `key` undefined means app permissions are unknown. */
  | { kind: "unknown-plugin"; key: string | undefined; base: string };

const KNOWN: IdentifierVerdict = Object.freeze({ kind: "known" });

/** What the catalog says about a capability entry's identifier; shared by the identifier rules. */
export function classifyIdentifier(identifier: string, catalog: Catalog): IdentifierVerdict {
  const check = checkIdentifier(identifier);
  if (!check.ok) return { kind: "invalid" };
  const { prefix, base } = check.parsed;
  const key = prefix ?? APP_KEY;
  const shownKey = prefix;
  if (catalog.has(key)) {
    // Known includes `<plugin>:default` without a default set: it passes the build (default-without-set covers it).
    if (catalog.isKnownIdentifier(identifier)) return KNOWN;
    return { kind: "unknown-permission", key: shownKey, base };
  }
  // A pre-`core:` name such as `window:allow-close` fails the build as an unknown plugin, but its
  // intent is certain: report it as a wrong permission with the new name.
  if (prefix && catalog.has(`core:${prefix}`))
    return { kind: "unknown-permission", key: shownKey, base };
  // The `core` namespace belongs to the host, whose catalog is always complete.
  if (prefix && (prefix === "core" || prefix.startsWith("core:")))
    return { kind: "unknown-permission", key: shownKey, base };
  return { kind: "unknown-plugin", key: shownKey, base };
}
