/**
 * caplint's locations and findings in the protocol's terms. caplint counts lines from 1 and columns
 * from 1 in UTF-16 code units (JavaScript string indices, src/core/location.ts), which is what LSP
 * counts from 0: a character outside the Basic Multilingual Plane is two units in both.
 */
import type { Diagnostic as LspDiagnostic, Range as LspRange } from "vscode-languageserver/node";
import type { Diagnostic, Severity } from "../core/diagnostics.js";
import type { Range } from "../core/location.js";
import { docsUrl } from "../core/tool.js";
import { DiagnosticSeverity } from "./protocol.js";

export function toLspRange(range: Range): LspRange {
  return {
    start: { line: range.start.line - 1, character: range.start.column - 1 },
    end: { line: range.end.line - 1, character: range.end.column - 1 },
  };
}

const SEVERITIES: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  // True but changing nothing at run time: a hint, which editors show without a squiggle in the problem list.
  suggestion: DiagnosticSeverity.Hint,
};

/** What a code action needs to find the finding again, carried in the diagnostic's `data`. */
export interface FindingData {
  ruleId: string;
  messageId?: string;
  hint?: string;
}

export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  const data: FindingData = {
    ruleId: d.ruleId,
    ...(d.messageId ? { messageId: d.messageId } : {}),
    ...(d.hint ? { hint: d.hint } : {}),
  };
  return {
    range: toLspRange(d.range),
    severity: SEVERITIES[d.severity],
    source: "caplint",
    code: d.ruleId,
    codeDescription: { href: docsUrl(d.ruleId) },
    message: d.hint ? `${d.message}\nhelp: ${d.hint}` : d.message,
    data,
  };
}
