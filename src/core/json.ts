/** A JSON object (not null, not an array): the check every reader of untrusted JSON starts with. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
