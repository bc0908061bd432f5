/** Permission identifier syntax, as the host validates it (host-acl-semantics §2.3). */
import { BoundedMemo } from "../../core/bounded-memo.js";
import { RESERVED_PREFIXES } from "./brand.js";

export const MAX_IDENTIFIER_BYTES = 116;

export interface ParsedIdentifier {
  /** Manifest key: `fs`, `core:window`, or undefined for app permissions. */
  prefix?: string;
  base: string;
}

export type IdentifierCheck =
  { ok: true; parsed: ParsedIdentifier } | { ok: false; message: string };

const isAlnum = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Identifiers come from the user's files: at most this many answers are kept (an app uses a few hundred). */
const MAX_CHECKED_IDENTIFIERS = 50_000;
const checked = new BoundedMemo<string, IdentifierCheck>(MAX_CHECKED_IDENTIFIERS);

/** Memoised: every rule asks about the same few hundred identifiers, thousands of times. */
export function checkIdentifier(id: string): IdentifierCheck {
  return checked.get(id, checkIdentifierUncached);
}

function checkIdentifierUncached(id: string): IdentifierCheck {
  // The build refuses the crate-name prefix in either spelling of the brand word.
  const reserved = RESERVED_PREFIXES.find((prefix) => id.startsWith(prefix));
  if (reserved) return { ok: false, message: `identifiers cannot start with ${reserved}` };
  if (id.length === 0) return { ok: false, message: "identifiers cannot be empty" };
  const bytes = Buffer.byteLength(id, "utf8");
  if (bytes > MAX_IDENTIFIER_BYTES)
    return {
      ok: false,
      message: `identifiers cannot be longer than ${MAX_IDENTIFIER_BYTES} bytes, found ${bytes}`,
    };
  if (!isAlnum(id.charCodeAt(0)))
    return { ok: false, message: "identifiers must start with an ASCII letter or digit" };
  let colons = 0;
  for (let i = 1; i < id.length; i++) {
    const previous = id.charCodeAt(i - 1);
    const c = id.charCodeAt(i);
    if (c === 58) colons++;
    const allowed = isAlnum(previous)
      ? isAlnum(c) || c === 45 || c === 58
      : previous === 45
        ? isAlnum(c)
        : isAlnum(c) || c === 58;
    if (!allowed) {
      // Name the character that is wrong, and where: `pa:x-_y` fails at the `_`, not at a ':'.
      const at = `at character ${i + 1}`;
      if (c === 45 && previous === 45)
        return { ok: false, message: `identifiers cannot contain '--' (${at})` };
      if (c === 58 && previous === 45)
        return { ok: false, message: `a ':' cannot follow a hyphen (${at})` };
      if (c === 45 && previous === 58)
        return { ok: false, message: `a hyphen cannot follow a ':' (${at})` };
      if (c === 58 && previous === 58)
        return { ok: false, message: `identifiers cannot contain '::' (${at})` };
      return {
        ok: false,
        message: `identifiers can only contain ASCII letters, digits, inner hyphens and ':' separators, found ${JSON.stringify(id[i])} ${at}`,
      };
    }
  }
  const last = id.charCodeAt(id.length - 1);
  if (last === 45) return { ok: false, message: "identifiers cannot have a trailing hyphen" };
  if (last === 58) return { ok: false, message: "identifiers cannot have a prefix without a base" };
  if (colons > 1 && !id.startsWith("core:"))
    return { ok: false, message: "only `core:` identifiers may contain more than one ':'" };
  const split = id.lastIndexOf(":");
  return {
    ok: true,
    parsed: split < 0 ? { base: id } : { prefix: id.slice(0, split), base: id.slice(split + 1) },
  };
}

/** Best-effort corrected spelling of an invalid identifier; undefined when nothing sensible comes out. */
export function correctIdentifier(id: string): string | undefined {
  let fixed = id
    .trim()
    .replace(/^(host|tauri)-plugin-/, "")
    .replace(/_/g, "-")
    .replace(/[./ ]/g, (ch) => (ch === "." ? ":" : "-"));
  const firstColon = fixed.indexOf(":");
  if (!fixed.startsWith("core:") && firstColon >= 0) {
    fixed = fixed.slice(0, firstColon + 1) + fixed.slice(firstColon + 1).replace(/:/g, "-");
  }
  fixed = fixed
    .replace(/-{2,}/g, "-")
    .replace(/-?:-?/g, ":")
    .replace(/[^A-Za-z0-9:-]/g, "")
    .replace(/^[^A-Za-z0-9]+/, "")
    .replace(/[-:]+$/, "");
  return fixed && fixed !== id && checkIdentifier(fixed).ok ? fixed : undefined;
}
