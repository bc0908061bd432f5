/**
 * Text that tells the user what to write does so in the file's own language: a TOML capability file
 * gets `windows = ["main"]`, not `"windows": ["main"]` (which would not parse there). Every hint,
 * suggested entry, suppression and code action that shows or inserts file text goes through here, so
 * one place knows both syntaxes.
 */
export type Syntax = "json" | "toml";

/**
 * The language of a file, from its name (a path, or a source with `absolutePath`); an inline
 * capability's source is its config file, so it follows `tauri.conf.json` or `Tauri.toml`.
 */
export function syntaxOf(file: string | { absolutePath: string }): Syntax {
  return /\.toml$/i.test(typeof file === "string" ? file : file.absolutePath) ? "toml" : "json";
}

/** A string value: a JSON string, or a TOML basic string (JSON's escapes are TOML's, but TOML forbids a raw DEL and has no escape for half a surrogate pair). */
export function quoteString(value: string, syntax: Syntax): string {
  const json = JSON.stringify(value);
  return syntax === "toml"
    ? json.replace(/\u007f|\\u(d[89a-f][0-9a-f]{2})/gi, (match) =>
        match === "\u007f" ? "\\u007F" : "\\uFFFD",
      )
    : json;
}

/** A value written inline: `["a"]`, `{ "name": "git" }` in JSON; `["a"]`, `{ name = "git" }` in TOML. */
export function inlineValue(value: unknown, syntax: Syntax): string {
  if (Array.isArray(value)) return `[${value.map((item) => inlineValue(item, syntax)).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.entries(value).map(([key, member]) => field(key, member, syntax));
    return members.length ? `{ ${members.join(", ")} }` : "{}";
  }
  return typeof value === "string" ? quoteString(value, syntax) : JSON.stringify(value);
}

/** One field: `"key": value` in JSON, `key = value` in TOML. */
export function field(key: string, value: unknown, syntax: Syntax): string {
  return `${fieldKey(key, syntax)}${syntax === "toml" ? " = " : ": "}${inlineValue(value, syntax)}`;
}

/** A key as written before its value: `"key"` in JSON, bare in TOML when it can be. */
export function fieldKey(key: string, syntax: Syntax): string {
  return syntax === "toml" && /^[A-Za-z0-9_-]+$/.test(key) ? key : quoteString(key, syntax);
}

const LINE = 72;

/**
 * A whole file holding `object` (a new capability file), as people write them: short arrays and
 * objects on one line, longer ones one item a line. TOML gets `key = value` lines, nested objects as
 * inline tables, which keeps every field of the object at the top level where the host reads it.
 */
export function fileText(object: Record<string, unknown>, syntax: Syntax): string {
  if (syntax === "json") return `${blockValue(object, syntax)}\n`;
  return Object.entries(object)
    .map(([key, value]) => `${fieldKey(key, syntax)} = ${blockValue(value, syntax)}\n`)
    .join("");
}

/**
 * A value as it is shown to be pasted (an entry to add): on one line when short, JSON as
 * `JSON.stringify` writes it, longer arrays and JSON objects one item a line below `indent`.
 */
export function blockValue(value: unknown, syntax: Syntax, indent = ""): string {
  const inline = syntax === "json" ? JSON.stringify(value) : inlineValue(value, syntax);
  if (inline.length <= LINE || value === null || typeof value !== "object") return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    // TOML allows a trailing comma in arrays (not in inline tables); JSON allows none.
    const items = value.map((item) => inner + blockValue(item, syntax, inner));
    return `[\n${items.join(",\n")}${syntax === "toml" ? "," : ""}\n${indent}]`;
  }
  // TOML inline tables must stay on one line.
  if (syntax === "toml") return inline;
  const fields = Object.entries(value as Record<string, unknown>).map(
    ([key, item]) => `${inner}${fieldKey(key, syntax)}: ${blockValue(item, syntax, inner)}`,
  );
  return `{\n${fields.join(",\n")}\n${indent}}`;
}
