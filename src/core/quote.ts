/**
 * Quoting untrusted text (a value from a recording, a name from a tool server) for a finding's message.
 * Messages reach terminals, editors and CI logs: besides what JSON escapes, the characters that hide or
 * reorder text (DEL and C1 controls, bidirectional marks and overrides, line and paragraph separators,
 * which JSON.stringify leaves as they are) are written as `\uXXXX`.
 */
const INVISIBLE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with the characters that hide or reorder text written as `\uXXXX`; everything else as it is. */
export function escapeInvisible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `text` quoted as JSON writes a string, with the characters that hide or reorder text escaped too. */
export function jsonQuote(text: string): string {
  return escapeInvisible(JSON.stringify(text));
}
