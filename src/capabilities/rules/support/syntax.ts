/**
 * Hints that show what to write do so in the file's own language: a TOML capability file gets
 * `windows = ["main"]`, not `"windows": ["main"]` (which would not parse there).
 */
export type Syntax = "json" | "toml";

/** The language a capability is written in, from its file (an inline capability follows its config file). */
export function syntaxOf(source: { absolutePath: string }): Syntax {
  return /\.toml$/i.test(source.absolutePath) ? "toml" : "json";
}

/** A value written inline: `["a"]`, `{ "name": "git" }` in JSON; `["a"]`, `{ name = "git" }` in TOML. */
export function inlineValue(value: unknown, syntax: Syntax): string {
  if (Array.isArray(value)) return `[${value.map((item) => inlineValue(item, syntax)).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.entries(value).map(([key, member]) => field(key, member, syntax));
    return members.length ? `{ ${members.join(", ")} }` : "{}";
  }
  return JSON.stringify(value);
}

/** One field: `"key": value` in JSON, `key = value` in TOML. */
export function field(key: string, value: unknown, syntax: Syntax): string {
  return syntax === "toml" ? `${tomlKey(key)} = ${inlineValue(value, syntax)}` : `${JSON.stringify(key)}: ${inlineValue(value, syntax)}`;
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}
