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

/** How a long value is cut: what is kept of its start and end, and what is said about the rest. */
export interface CutPolicy {
  /** Characters kept from the start (default: all the kept length). */
  head: number;
  /** Characters kept from the end (default none). */
  tail?: number;
  /** Say after the cut how many characters were left out: `…[N more characters]`. */
  countRest?: boolean;
}

/**
 * The one way a value too long for a message is cut, for every kind of input (each picks its
 * lengths): its first `head` characters, `…`, its last `tail`, never half a surrogate pair. A value
 * of at most `max` characters is kept whole.
 */
export function cutText(text: string, max: number, policy: CutPolicy = { head: max }): string {
  if (text.length <= max) return text;
  let end = policy.head;
  // Never half a surrogate pair.
  if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
  let start = text.length - (policy.tail ?? 0);
  if (start < text.length && isLowSurrogate(text.charCodeAt(start))) start++;
  const rest = policy.countRest ? `[${text.length - end} more characters]` : "";
  return `${text.slice(0, end)}…${rest}${text.slice(start)}`;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
