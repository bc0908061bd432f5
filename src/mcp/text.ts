import { cutText, escapeInvisible } from "../core/quote.js";

/**
 * Names and texts from a server are untrusted: they are quoted with control, bidirectional and
 * line-breaking characters escaped, and shortened, before they reach a message or a terminal.
 */
export function quote(value: unknown, max = 80): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return `"${escapeControls(cutText(text, max, { head: max - 20, tail: 12 }))}"`;
}

/**
 * Not JSON's escaping: every C0 control is written `\u00XX` (a newline too, where JSON writes `\n`), as
 * this domain's messages always have; the characters that hide or reorder text are the core's.
 */
export function escapeControls(text: string): string {
  return escapeInvisible(
    text.replace(/[\u0000-\u001f"\\]/g, (c) =>
      c === '"'
        ? '\\"'
        : c === "\\"
          ? "\\\\"
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ),
  );
}
