import { UsageError } from "./errors.js";

/** Option values every command parses the same way (rule settings: settings.ts). */

export function parsePositiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new UsageError(`expected a whole number, got "${value}"`);
  return parsed;
}
