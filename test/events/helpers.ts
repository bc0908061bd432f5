import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { createEventValidator, type EventDiagnostic } from "../../src/events/validator.js";
import { FIXTURES } from "../helpers/run.js";

export const EVENT_FIXTURES = path.join(FIXTURES, "events");

/** A client-to-server recording is checked with --client, which its `<case>.args` says (test/rule-fixtures.test.ts). */
export function isClientFixture(file: string): boolean {
  const args = file.replace(/\.jsonl$/, ".args");
  return existsSync(args) && readFileSync(args, "utf8").split("\n").includes("--client");
}

/** The recordings of every event rule's `valid/` (or `invalid/`) folder: `fixtures/events/<rule-id>/<kind>/`. */
export function fixtureFiles(kind: "valid" | "invalid"): string[] {
  return readdirSync(EVENT_FIXTURES, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(path.join(EVENT_FIXTURES, entry.name, kind)),
    )
    .flatMap((entry) => {
      const folder = path.join(EVENT_FIXTURES, entry.name, kind);
      return readdirSync(folder)
        .filter((name) => name.endsWith(".jsonl"))
        .map((name) => path.join(folder, name));
    })
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
