import { TARGETS, type Target } from "./model/types.js";

/**
 * The library's options are checked where they enter (`loadProject`, `lint`, `resolveAccess`), with
 * messages naming the option: a caller's typo must not turn into a silently different check
 * (`paths: "src"` iterated as the paths "s", "r", "c"; `maxFileBytes: NaN` refusing every file).
 */
export class OptionError extends TypeError {}

const describe = (value: unknown) =>
  typeof value === "string"
    ? JSON.stringify(value)
    : Array.isArray(value)
      ? "an array"
      : value === null
        ? "null"
        : typeof value === "number"
          ? String(value)
          : `a ${typeof value}`;

export function requireString(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== "string")
    throw new OptionError(`${name}: expected a string, got ${describe(value)}`);
}

export function requireStringList(name: string, value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value))
    throw new OptionError(
      `${name}: expected an array of strings, got ${describe(value)}${typeof value === "string" ? ` (write [${JSON.stringify(value)}])` : ""}`,
    );
  value.forEach((item, index) => {
    if (typeof item !== "string")
      throw new OptionError(`${name}[${index}]: expected a string, got ${describe(item)}`);
  });
}

export function requireByteCount(name: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)
    throw new OptionError(
      `${name}: expected a whole number of bytes (0 or more), got ${describe(value)}`,
    );
}

/** A platform as the format spells it; other casings (`"Linux"`, `"MACOS"`) are normalised, anything else refused. */
export function normalizePlatform(name: string, value: unknown): Target {
  if (typeof value === "string") {
    const exact =
      TARGETS.find((target) => target === value) ??
      TARGETS.find((target) => target.toLowerCase() === value.toLowerCase());
    if (exact) return exact;
  }
  throw new OptionError(
    `${name}: expected one of ${TARGETS.map((t) => `"${t}"`).join(", ")}, got ${describe(value)}`,
  );
}
