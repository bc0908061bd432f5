import { createHash } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic, Severity } from "../diagnostics.js";
import type { RuleMeta } from "../lint/rule.js";
import type { Reporter, ReporterContext } from "./types.js";
import { HOMEPAGE } from "../tool.js";

/** The OASIS location of the SARIF 2.1.0 schema (errata 01), which GitHub code scanning also names. */
export const SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/** Relative artifact URIs resolve against this base; GitHub maps it to the repository checkout. */
const SRCROOT = "%SRCROOT%";

/**
 * SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.
 * Every registered rule is listed (also those without results) so that viewers can show rule help
 * and GitHub can close alerts of rules that stopped reporting.
 */
const sarif: Reporter = ({ diagnostics, notes = [], config }, context) => {
  const rules = [...context.rules.values()];
  const ruleIndex = sarifRuleIndex(context);
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "caplint",
            version: context.toolVersion,
            semanticVersion: context.toolVersion,
            informationUri: HOMEPAGE,
            rules: rules.map((rule) => ruleDescriptor(rule, context)),
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: directoryUri(context.cwd) } },
        // Our columns count UTF-16 code units, like JavaScript strings.
        columnKind: "utf16CodeUnits",
        results: diagnostics.map((d) => sarifResult(d, ruleIndex)),
        ...(notes.length || config !== undefined ? { invocations: [invocation(notes, config, context.cwd)] } : {}),
      },
    ],
  };
  return JSON.stringify(log, null, 2) + "\n";
};

/**
 * The run's invocation: facts about the whole run (tool execution notes) and the configuration that
 * decided the severities, as a configuration notification pointing at the file (viewers link it) and
 * as `properties.config` (null when none was used) for scripts.
 */
function invocation(notes: readonly string[], config: string | null | undefined, cwd: string) {
  return {
    executionSuccessful: true,
    ...(notes.length ? { toolExecutionNotifications: notes.map((text) => ({ level: "note", message: { text } })) } : {}),
    ...(config
      ? {
          toolConfigurationNotifications: [
            {
              level: "note",
              message: { text: `rule settings read from ${config}` },
              locations: [{ physicalLocation: { artifactLocation: artifactLocation({ file: config, absolutePath: path.resolve(cwd, config) }) } }],
            },
          ],
        }
      : {}),
    ...(config !== undefined ? { properties: { config } } : {}),
  };
}

function ruleDescriptor(rule: RuleMeta, context: ReporterContext) {
  const docs = context.docsUrl(rule.id);
  return {
    id: rule.id,
    name: rule.id,
    shortDescription: { text: rule.description },
    fullDescription: { text: rule.description },
    helpUri: docs,
    help: { text: `${rule.description}\nDocumentation: ${docs}`, markdown: `${rule.description}\n\n[Documentation](${docs})` },
    defaultConfiguration: { level: level(rule.defaultSeverity) },
    properties: ruleProperties(rule),
  };
}

/**
 * GitHub code scanning reads these: `security-severity` ranks security alerts (critical above 9.0,
 * high from 7.0, medium from 4.0), the `security` tag files them as security alerts, and `precision`
 * says how often a finding is right. Correctness rules mirror the host's own build checks.
 */
function ruleProperties(rule: RuleMeta) {
  const tags = rule.security
    ? ["security", rule.category === "security" ? undefined : rule.category, ...rule.security.cwe.map((cwe) => `external/cwe/cwe-${cwe}`)]
    : [rule.category];
  return {
    tags: tags.filter((tag): tag is string => tag !== undefined),
    precision: rule.category === "correctness" ? "very-high" : "high",
    "problem.severity": PROBLEM_SEVERITY[rule.defaultSeverity],
    ...(rule.security ? { "security-severity": rule.security.severity.toFixed(1) } : {}),
  };
}

/**
 * A finding's identity across commits: rule, file, JSON path and message, but not the line, so code
 * scanning keeps tracking (and does not reopen) an alert when lines above it move.
 */
export function findingFingerprint(d: Diagnostic): string {
  const identity = JSON.stringify([d.ruleId, d.file, d.path, d.message]);
  return createHash("sha256").update(identity).digest("hex").slice(0, 32);
}

/** Where each rule is listed in the log's `tool.driver.rules`. */
export function sarifRuleIndex(context: ReporterContext): ReadonlyMap<string, number> {
  return new Map([...context.rules.values()].map((rule, index) => [rule.id, index]));
}

/** One finding of the SARIF log. */
export function sarifResult(d: Diagnostic, ruleIndex: ReadonlyMap<string, number>) {
  const index = ruleIndex.get(d.ruleId);
  const text = d.hint ? `${d.message}\nhelp: ${d.hint}` : d.message;
  if (d.liveServer !== undefined) {
    // A live server has no file in the repository: no physical location, the server named in the message and properties.
    return {
      ruleId: d.ruleId,
      ...(index === undefined ? {} : { ruleIndex: index }),
      level: level(d.severity),
      message: { text: `${d.liveServer}: ${text}` },
      partialFingerprints: { "caplintFindingHash/v1": findingFingerprint(d) },
      properties: { ...(d.messageId === undefined ? {} : { messageId: d.messageId }), server: d.liveServer, path: d.path },
    };
  }
  return {
    ruleId: d.ruleId,
    ...(index === undefined ? {} : { ruleIndex: index }),
    level: level(d.severity),
    message: { text },
    partialFingerprints: { "caplintFindingHash/v1": findingFingerprint(d) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: artifactLocation(d),
          region: {
            startLine: d.range.start.line,
            startColumn: d.range.start.column,
            endLine: d.range.end.line,
            endColumn: d.range.end.column,
          },
        },
      },
    ],
    // The rule's message id, so programs can tell findings of one rule apart without parsing the text.
    ...(d.messageId === undefined ? {} : { properties: { messageId: d.messageId } }),
    ...(d.relatedLine === undefined
      ? {}
      : {
          relatedLocations: [
            {
              id: 1,
              message: { text: "the other event of the pair" },
              physicalLocation: { artifactLocation: artifactLocation(d), region: { startLine: d.relatedLine } },
            },
          ],
        }),
  };
}

/**
 * Files inside the working directory get a relative URI against %SRCROOT%; a file outside it
 * gets an absolute file URI, since a URI climbing above the source root names nothing there.
 */
function artifactLocation(d: Pick<Diagnostic, "file" | "absolutePath">): { uri: string; uriBaseId?: string } {
  const outside = d.file === ".." || d.file.startsWith("../") || path.posix.isAbsolute(d.file) || path.win32.isAbsolute(d.file);
  if (outside) return { uri: pathToFileURL(d.absolutePath).href };
  return { uri: d.file.split("/").map(encodeURIComponent).join("/"), uriBaseId: SRCROOT };
}

/** SARIF requires a base URI to end with a slash, or relative URIs would resolve against its parent. */
function directoryUri(cwd: string): string {
  const href = pathToFileURL(cwd).href;
  return href.endsWith("/") ? href : `${href}/`;
}

/** SARIF's result levels: a suggestion is a `note`. */
function level(severity: Severity): "error" | "warning" | "note" {
  return severity === "suggestion" ? "note" : severity;
}

/** GitHub code scanning's names for the levels. */
const PROBLEM_SEVERITY: Readonly<Record<Severity, string>> = { error: "error", warning: "warning", suggestion: "recommendation" };

export default sarif;
