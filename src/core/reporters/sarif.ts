import { createHash } from "node:crypto";
import path from "node:path";
import type { Diagnostic, Severity } from "../diagnostics.js";
import type { RuleMeta } from "../lint/rule.js";
import type { Reporter, ReporterContext } from "./types.js";
import { HOMEPAGE } from "../tool.js";
import { repositoryPath, sourceRoot, STDIN_NAME } from "./repository-paths.js";

/** The OASIS location of the SARIF 2.1.0 schema (errata 01), which GitHub code scanning also names. */
export const SARIF_SCHEMA_URI =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/**
 * Relative artifact URIs resolve against this base: the repository root (the nearest folder above the
 * working directory with `.git`), else the working directory. GitHub code scanning reads a relative
 * URI from the repository root, whatever folder caplint ran in.
 */
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
        // No uri: the log names no folder of this machine (SARIF 3.14.14 lets the consumer supply it; GitHub
        // code scanning reads %SRCROOT% as the repository's root). Results name files relative to it.
        originalUriBaseIds: {
          [SRCROOT]: {
            description: {
              text: "The repository root (the folder holding .git; outside a repository, the folder caplint ran in).",
            },
          },
        },
        // Our columns count UTF-16 code units, like JavaScript strings.
        columnKind: "utf16CodeUnits",
        results: diagnostics.map((d) => sarifResult(d, ruleIndex, context.cwd)),
        ...(notes.length || config !== undefined
          ? { invocations: [invocation(notes, config, context.cwd)] }
          : {}),
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
    ...(notes.length
      ? { toolExecutionNotifications: notes.map((text) => ({ level: "note", message: { text } })) }
      : {}),
    ...(config
      ? {
          toolConfigurationNotifications: [
            {
              level: "note",
              message: { text: `rule settings read from ${config}` },
              locations: [
                {
                  physicalLocation: {
                    artifactLocation: artifactLocation(path.resolve(cwd, config), sourceRoot(cwd)),
                  },
                },
              ],
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
    help: {
      text: `${rule.description}\nDocumentation: ${docs}`,
      markdown: `${rule.description}\n\n[Documentation](${docs})`,
    },
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
    ? [
        "security",
        rule.category === "security" ? undefined : rule.category,
        ...rule.security.cwe.map((cwe) => `external/cwe/cwe-${cwe}`),
      ]
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

/**
 * One finding of the SARIF log. GitHub code scanning rejects a whole upload when one result has no
 * location with an artifact URI, so a finding without a file in the repository (a live server's,
 * standard input's without `--stdin-filename`) is placed at the folder caplint ran in, with no region,
 * and says in its message where it is.
 */
export function sarifResult(d: Diagnostic, ruleIndex: ReadonlyMap<string, number>, cwd: string) {
  const index = ruleIndex.get(d.ruleId);
  const text = d.hint ? `${d.message}\nhelp: ${d.hint}` : d.message;
  const root = sourceRoot(cwd);
  const fileless = d.liveServer !== undefined || d.file === STDIN_NAME;
  const where =
    d.liveServer ??
    (fileless ? `${STDIN_NAME}:${d.range.start.line}:${d.range.start.column}` : undefined);
  const properties = {
    ...(d.messageId === undefined ? {} : { messageId: d.messageId }),
    ...(d.liveServer === undefined ? {} : { server: d.liveServer, path: d.path }),
  };
  return {
    ruleId: d.ruleId,
    ...(index === undefined ? {} : { ruleIndex: index }),
    level: level(d.severity),
    message: { text: where === undefined ? text : `${where}: ${text}` },
    partialFingerprints: { "caplintFindingHash/v1": findingFingerprint(d) },
    locations: [
      {
        physicalLocation: fileless
          ? { artifactLocation: artifactLocation(cwd, root, true) }
          : {
              artifactLocation: artifactLocation(d.absolutePath, root),
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
    ...(Object.keys(properties).length ? { properties } : {}),
    ...(d.relatedLine === undefined || fileless
      ? {}
      : {
          relatedLocations: [
            {
              id: 1,
              message: { text: "the other event of the pair" },
              physicalLocation: {
                artifactLocation: artifactLocation(d.absolutePath, root),
                region: { startLine: d.relatedLine },
              },
            },
          ],
        }),
  };
}

/**
 * A file (or folder) inside the source root gets a URI relative to %SRCROOT%; one outside it an
 * absolute file URI, since a URI climbing above the source root names nothing there. Built from the
 * path's bytes, so a name that is not UTF-8 is percent-encoded byte for byte (`a%FF.json`), not as
 * its `\xff` display form; a folder's URI ends with a slash.
 */
function artifactLocation(
  absolutePath: string,
  root: string,
  folder = false,
): { uri: string; uriBaseId?: string } {
  const { bytes, fromRoot } = repositoryPath(absolutePath, root);
  if (fromRoot?.length === 0) return { uri: "./", uriBaseId: SRCROOT };
  // A Windows path C:\\x is the URI file:///C:/x.
  if (fromRoot === undefined)
    return {
      uri: `file://${path.sep === "/" ? "" : "/"}${encodePath(bytes, ":")}${folder ? "/" : ""}`,
    };
  return { uri: `${encodePath(fromRoot)}${folder ? "/" : ""}`, uriBaseId: SRCROOT };
}

/** Percent-encodes a path's bytes as encodeURIComponent would its UTF-8, keeping the separators (as slashes) and `keep`. */
function encodePath(bytes: Buffer, keep = ""): string {
  let uri = "";
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    if (char === path.sep) uri += "/";
    else
      uri +=
        byte < 0x80 && (UNESCAPED.test(char) || keep.includes(char))
          ? char
          : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return uri;
}
const UNESCAPED = /^[A-Za-z0-9\-_.!~*'()]$/;

/** SARIF's result levels: a suggestion is a `note`. */
function level(severity: Severity): "error" | "warning" | "note" {
  return severity === "suggestion" ? "note" : severity;
}

/** GitHub code scanning's names for the levels. */
const PROBLEM_SEVERITY: Readonly<Record<Severity, string>> = {
  error: "error",
  warning: "warning",
  suggestion: "recommendation",
};

export default sarif;
