import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { createEventValidator, type EventDiagnostic } from "../../src/events/validator.js";
import { FIXTURES } from "../helpers/run.js";

export const EVENT_FIXTURES = path.join(FIXTURES, "events");

/** Client-to-server recordings are named client-*.jsonl and checked with --client. */
export const isClientFixture = (file: string) => path.basename(file).startsWith("client-");

export function fixtureFiles(kind: "valid" | "invalid"): string[] {
  const root = path.join(EVENT_FIXTURES, kind);
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => path.join(root, name))
    .sort();
}

export function byPosition(a: EventDiagnostic, b: EventDiagnostic): number {
  return (
    a.line - b.line ||
    a.column - b.column ||
    (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0) ||
    (a.message < b.message ? -1 : 1)
  );
}

/** All findings of a recording given as text, in report order. */
export function validateText(text: string, client = false): EventDiagnostic[] {
  const validator = createEventValidator({ client });
  return [...validator.push(text), ...validator.end()].sort(byPosition);
}

export function validateFile(file: string): EventDiagnostic[] {
  return validateText(readFileSync(file, "utf8"), isClientFixture(file));
}
