/**
 * A Vitest matcher for a client's or server's own test suite (`import "caplint/vitest"`):
 *
 *   expect(recordedLines).toBeValidEventStream();
 *   expect(clientTraffic).toBeValidEventStream({ client: true });
 *
 * The received value is an array of lines (strings, or event objects, which are serialized) or the
 * whole recording as one string. It passes when the recording has no error-level finding (with
 * `warnings: true`, no finding at all); the failure message lists every finding, one a line.
 */
import { expect } from "vitest";
import {
  createEventValidator,
  type EventDiagnostic,
  type EventValidatorOptions,
} from "./validator.js";
import { plural } from "../core/wording.js";

export interface EventStreamMatcherOptions extends EventValidatorOptions {
  /** Fail on warnings too (a call still open at the end, unknown fields...). Default false. */
  warnings?: boolean;
}

/** Validates a recording given as lines, event objects or one text; the findings in line order. */
export function validateEventStream(
  received: unknown,
  options: EventValidatorOptions = {},
): EventDiagnostic[] {
  const validator = createEventValidator(options);
  const findings: EventDiagnostic[] = [];
  const lines =
    typeof received === "string" ? [received] : Array.isArray(received) ? received : undefined;
  if (!lines)
    throw new TypeError(
      `toBeValidEventStream: expected an array of lines or events, or a string, got ${received === null ? "null" : typeof received}`,
    );
  for (const line of lines)
    for (const item of validator.push(typeof line === "string" ? line : JSON.stringify(line)))
      findings.push(item);
  for (const item of validator.end()) findings.push(item);
  return findings.sort((a, b) => a.line - b.line || a.column - b.column);
}

function describe(d: EventDiagnostic): string {
  return `  line ${d.line}:${d.column}: ${d.severity} ${d.message} [${d.ruleId}]${d.relatedLine !== undefined ? ` (see line ${d.relatedLine})` : ""}`;
}

export const eventStreamMatchers = {
  toBeValidEventStream(received: unknown, options: EventStreamMatcherOptions = {}) {
    const findings = validateEventStream(received, options);
    const failing = options.warnings ? findings : findings.filter((d) => d.severity === "error");
    return {
      pass: failing.length === 0,
      message: () =>
        failing.length === 0
          ? "expected the event stream to break the protocol, but it has no finding"
          : `expected a valid event stream, found ${plural(failing.length, "problem")}:\n${failing.map(describe).join("\n")}`,
      actual: findings,
    };
  },
};

expect.extend(eventStreamMatchers);

declare module "vitest" {
  // The declaration merges with Vitest's own `Matchers<T = any>`, whose default must be repeated exactly.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  interface Matchers<T = any> {
    /** The value (lines, events or one text) is a valid event recording (caplint's event rules). */
    toBeValidEventStream(options?: EventStreamMatcherOptions): T;
  }
}
