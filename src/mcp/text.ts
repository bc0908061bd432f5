/**
 * Names and texts from a server are untrusted: they are quoted with control, bidirectional and
 * line-breaking characters escaped, and shortened, before they reach a message or a terminal.
 */
export function quote(value: unknown, max = 80): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const short = text.length > max ? `${text.slice(0, max - 20)}…${text.slice(-12)}` : text;
  return `"${escapeControls(short)}"`;
}

export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"\\]/g, (c) =>
    c === '"' ? '\\"' : c === "\\" ? "\\\\" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
