import {
  compareDiagnostics,
  type Diagnostic,
  type Fix,
  type RuleSetting,
} from "../core/diagnostics.js";
import { RuleRun, type FindingInput } from "../core/lint/run-rules.js";
import type { RuleMeta } from "../core/lint/rule.js";
import type { SourceDocument } from "../core/source/document.js";
import path from "node:path";
import { relativeFile, type Project } from "./load/project.js";
import { configDocuments } from "./load/app-config.js";
import { isPlatformIndependent } from "./queries/platforms.js";
import type { JsonPath } from "../core/location.js";
import type { Capability, PermissionEntry } from "./model/types.js";
import { CAPABILITY_RULES } from "./rules/index.js";
import {
  CAPABILITY_FIELDS,
  capabilityObjects,
  fileForm,
  PERMISSION_ENTRY_FIELDS,
  REMOTE_FIELDS,
  WRAPPED_FILE_FIELDS,
} from "./model/capability.js";
import { collectSuppressions } from "./suppressions.js";
import { formatMessage } from "../core/messages.js";
import { isResolvedPosixPath } from "../core/source/read-log.js";
import { cutText } from "../core/quote.js";
import type { Resolution } from "./engine/index.js";
import { TARGETS } from "./model/types.js";
import type { LocatedReport, PipelineStep, Rule, RuleContext, RuleReport } from "./rules/types.js";
import { validateCapabilityFile, type SchemaProblem } from "./schema/validate.js";
import { normalizePlatform, OptionError, requireStringList } from "./library-options.js";
import { work } from "./work.js";
import { placeOnce, RecordingRuleRun, startRules, wordOnce, type LintMemo } from "./lint-memo.js";

export interface LintOptions {
  /**
   * The configured severity of a rule for a file (absolute path), or undefined for the rule's
   * default. The CLI layers `--rule`, config overrides and config rules behind this.
   */
  severityFor?: (ruleId: string, absolutePath: string) => RuleSetting | undefined;
  /** When given, only these rules run (parse and schema always do); the others are not even started. */
  only?: ReadonlySet<string>;
  /** Platforms the engine-based rules resolve for; default: all five targets. */
  platforms?: readonly string[];
  /**
   * Files (absolute paths) or folders (ending in the path separator) to report on: the project is
   * loaded and checked whole, as the build sees it, but only findings in these are kept. A file list
   * inside an app (pre-commit) is checked this way.
   */
  focus?: readonly string[];
  /**
   * Kept by an editor's session between lints of one app: each rule runs again only over what changed
   * since its last run (src/capabilities/lint-memo.ts); the findings are the same as without it.
   */
  memo?: LintMemo;
  /**
   * True when the caller reads no finding's fix (a compact, GitHub or SARIF report): the findings are
   * made without one (each fix is a second walk of the file's syntax tree and an edit object).
   */
  omitFixes?: boolean;
  /**
   * True when the caller reads no finding's `data` or `group` (a compact, GitHub or SARIF report):
   * the findings are made without them (they live until the report, and the collector copied
   * and promoted what each held).
   */
  omitFindingData?: boolean;
}

/** What the linter runs: the rules, and the pipeline steps whose findings it reports itself. */
export type CapabilityRule = Rule | PipelineStep;

export interface LintResult {
  diagnostics: Diagnostic[];
  /** Number of files checked (capability files, unreadable ones and the frontend files scanned). */
  files: number;
  /** Facts about the whole run, said once (e.g. no Cargo.lock: the newest releases were assumed). */
  notes?: string[];
}

/**
 * Lints a loaded project: read and parse problems, then the schema, then every enabled rule.
 * Rules see a typed model in which schema-invalid fields are dropped, so a wrong type in one
 * field does not hide unknown permissions elsewhere in the same file.
 */
export async function lint(project: Project, options: LintOptions = {}): Promise<LintResult> {
  return lintWithRules(project, CAPABILITY_RULES, options);
}

/** `lint()` with a given rule list (tests run rules that break the contract through it). */
export async function lintWithRules(
  project: Project,
  rules: readonly CapabilityRule[],
  givenOptions: LintOptions = {},
): Promise<LintResult> {
  const options: LintOptions = { ...givenOptions };
  if (options.platforms !== undefined) {
    requireStringList("platforms", options.platforms);
    options.platforms = options.platforms.map((platform, index) =>
      normalizePlatform(`platforms[${index}]`, platform),
    );
  }
  if (options.severityFor !== undefined && typeof options.severityFor !== "function")
    throw new OptionError("severityFor: expected a function (ruleId, absolutePath) => severity");
  if (options.only !== undefined && !(options.only instanceof Set))
    throw new OptionError("only: expected a Set of rule ids");
  const documentsByPath = new Map<string, SourceDocument>();
  for (const document of project.documents) documentsByPath.set(document.absolutePath, document);
  for (const document of configDocuments(project.config))
    documentsByPath.set(document.absolutePath, document);
  // Generated manifests give manifest-mismatch findings their positions.
  for (const document of project.manifestDocuments ?? [])
    if (!documentsByPath.has(document.absolutePath))
      documentsByPath.set(document.absolutePath, document);
  // Permission files place set-cycle's findings about a set no capability uses.
  for (const document of project.permissionDocuments ?? [])
    if (!documentsByPath.has(document.absolutePath))
      documentsByPath.set(document.absolutePath, document);

  const suppressions = collectSuppressions(project.capabilities);
  const memo = options.memo;
  const withoutFixes = options.omitFixes === true;
  const runOptions = {
    settings: options,
    suppressions,
    omitData: options.omitFindingData === true,
    words: (rule: Pick<Rule, "id" | "messages">, report: LocatedReport) =>
      memo ? wordOnce(memo, report, () => wordsOf(rule, report)) : wordsOf(rule, report),
  };
  const run = memo ? new RecordingRuleRun(runOptions) : new RuleRun<LocatedReport>(runOptions);
  /** Each file's findings are placed and fixed in its document (none for a skipped .json5: its first character). */
  const inputs = new Map<
    string,
    { document: SourceDocument | undefined; input: FindingInput<LocatedReport> }
  >();
  const inputOf = (
    document: SourceDocument | undefined,
    absolutePath: string,
    file: string,
  ): FindingInput<LocatedReport> => {
    const known = inputs.get(absolutePath);
    if (known && known.document === document && known.input.file === file) return known.input;
    const input: FindingInput<LocatedReport> = {
      file,
      absolutePath,
      // Without a memo (every run but an editor's) a finding is placed directly: no closure per finding.
      locate: memo
        ? (report) =>
            placeOnce(
              memo,
              document,
              report,
              () => document?.locate(report.path, report.target) ?? NOWHERE,
            )
        : (report) => document?.locate(report.path, report.target) ?? NOWHERE,
      fix: withoutFixes ? undefined : (report) => fixOf(report, document),
    };
    inputs.set(absolutePath, { document, input });
    return input;
  };
  const emit = (
    rule: CapabilityRule,
    document: SourceDocument | undefined,
    absolutePath: string,
    file: string,
    report: LocatedReport,
  ) => run.report(rule, report, inputOf(document, absolutePath, file));

  const parse = rules.find((rule) => rule.id === "parse")!;
  const schema = rules.find((rule) => rule.id === "schema")!;
  for (const problem of project.problems) {
    const document = problem.document ?? documentsByPath.get(problem.absolutePath);
    emit(parse, document, problem.absolutePath, problem.file, {
      path: problem.path ?? [],
      messageId: "unreadable",
      data: { problem: problem.message },
    });
  }
  // Each document's problems at its index: no async function, promise and pair per document.
  const validations = await Promise.all(
    project.documents.map((document) =>
      document.ok ? schemaProblemsOf(document) : Promise.resolve(NO_PROBLEMS),
    ),
  );
  for (let index = 0; index < project.documents.length; index++) {
    const document = project.documents[index]!;
    const problems = validations[index]!;
    if (!document.ok) {
      emit(parse, document, document.absolutePath, document.file, {
        path: [],
        messageId: "unreadable",
        data: { problem: document.parseError!.message },
      });
      continue;
    }
    for (const { message, ...problem } of problems)
      emit(schema, document, document.absolutePath, document.file, {
        ...problem,
        messageId: "violation",
        data: { problem: message },
      });
    for (const path of repeatedFields(document)) {
      emit(schema, document, document.absolutePath, document.file, {
        path,
        target: "key",
        messageId: "repeatedField",
        data: { field: String(path[path.length - 1]), framework: project.catalog.framework },
        hint: "keep one of them (caplint, like JSON.parse, reads the last)",
      });
    }
  }

  let resolution: Promise<Resolution> | undefined;
  const resolveOnce = () =>
    (resolution ??= import("./engine/index.js").then(({ resolveAll }) => {
      const platforms = options.platforms ?? TARGETS;
      // Without a `platforms` list anywhere, every platform resolves alike: once is enough.
      return resolveAll({
        capabilities: project.activeCapabilities,
        catalog: project.catalog,
        platforms: isPlatformIndependent(project) ? platforms.slice(0, 1) : platforms,
      });
    }));
  const resolutions = async () => (await resolveOnce()).models;
  const rulesById: ReadonlyMap<string, CapabilityRule> = new Map(
    rules.map((rule) => [rule.id, rule]),
  );
  let everyEntry: ReadonlyArray<{ capability: Capability; entry: PermissionEntry }> | undefined;
  const shared = {
    project,
    catalog: project.catalog,
    capabilities: project.capabilities,
    rules: rulesById,
    platforms: options.platforms ?? TARGETS,
    document: (at: { absolutePath: string }) => documentsByPath.get(at.absolutePath),
    // Made once and shared: most rules walk every entry, and a generator per rule allocated a pair per entry each time.
    entries: (): ReadonlyArray<{ capability: Capability; entry: PermissionEntry }> =>
      (everyEntry ??= Object.freeze(entryPairs(project.capabilities))),
    suppressions: () => suppressions,
  };
  const resolved = new Map<string, string>();
  const resolvedPath = (file: string) => {
    // A finding's file is a document's absolute path: kept as it is, not resolved into a copy per file.
    const absolute = isResolvedPosixPath(file) ? file : path.resolve(project.cwd, file);
    resolved.set(file, absolute);
    return absolute;
  };
  /**
   * The input of each file named by a finding's `at`, found once: a run reports tens of thousands of
   * findings in a few thousand files (the documents and paths do not change during a lint).
   */
  const inputsAt = new Map<string, FindingInput<LocatedReport>>();
  /** One context per rule: `report` is bound to its rule, nothing is shared or mutable. */
  /** A finding kept from the last lint (options.memo), placed in this lint's document of its file. */
  const replay = (rule: RuleMeta, report: LocatedReport, at: string) => {
    const document = documentsByPath.get(at);
    const absolutePath = resolved.get(at) ?? resolvedPath(at);
    const input = inputOf(
      document,
      absolutePath,
      document?.file ?? relativeFile(project.cwd, absolutePath),
    );
    run.report(rule, report, input);
  };
  await startRules(
    run,
    rules,
    options,
    // Every field written out: a spread of `shared` and the fields after it took V8's slow path
    // (a property added to the copy one at a time) for each rule of each app of a monorepo.
    (rule: Rule, reportFinding): RuleContext => {
      return {
        rule,
        project: shared.project,
        catalog: shared.catalog,
        capabilities: shared.capabilities,
        rules: shared.rules,
        platforms: shared.platforms,
        document: shared.document,
        entries: shared.entries,
        suppressions: shared.suppressions,
        resolution: resolveOnce,
        resolutions,
        report(report: RuleReport) {
          const at = report.at.absolutePath;
          let input = inputsAt.get(at);
          if (input === undefined) {
            const document = documentsByPath.get(at);
            // A file without a document (a skipped .json5) is still named relative to the working directory.
            const absolutePath = resolved.get(at) ?? resolvedPath(at);
            input = inputOf(
              document,
              absolutePath,
              document?.file ?? relativeFile(project.cwd, absolutePath),
            );
            inputsAt.set(at, input);
          }
          reportFinding(report, input);
        },
      };
    },
    { project, memo, replay, platforms: shared.platforms },
  );
  const diagnostics = run.finish();
  if (options.omitFindingData === true) work.findingsWithoutData += diagnostics.length;

  const focus = options.focus;
  const inFocus = (file: string) =>
    focus === undefined ||
    focus.some((f) => file === f || (f.endsWith(path.sep) && file.startsWith(f)));
  const kept =
    focus === undefined ? diagnostics : diagnostics.filter((d) => inFocus(d.absolutePath));
  const unreadable = new Set(
    project.problems
      .filter((p) => !documentsByPath.has(p.absolutePath) && inFocus(p.absolutePath))
      .map((p) => p.absolutePath),
  );
  // The frontend files the scan read are checked too (frontend-command-not-granted reports in them).
  const frontendFiles = project.frontend?.files.filter((file) => inFocus(file)).length ?? 0;
  const files =
    project.documents.filter((d) => inFocus(d.absolutePath)).length +
    unreadable.size +
    frontendFiles;
  return {
    diagnostics: dedupeSorted(kept.sort(compareDiagnostics)),
    files,
    notes: [...(project.notes ?? [])],
  };
}

/**
 * A document's schema problems, found once per document: a language server's reload after an edit
 * keeps the documents whose text is unchanged (the same objects), so only the edited ones are
 * validated again.
 */
const schemaProblems = new WeakMap<SourceDocument, Promise<SchemaProblem[]>>();

function schemaProblemsOf(document: SourceDocument): Promise<SchemaProblem[]> {
  let problems = schemaProblems.get(document);
  if (!problems) {
    problems = validateCapabilityFile(
      document.value,
      (path) => document.writtenText(path),
      document.format,
    );
    schemaProblems.set(document, problems);
  }
  return problems;
}

/** Repeated keys serde rejects: the known fields of capabilities, `remote`, permission entries and the file. */
function repeatedFields(document: SourceDocument): JsonPath[] {
  const repeated = document.repeatedKeys();
  if (repeated.length === 0) return [];
  const known = new Map<string, readonly string[]>();
  const form = fileForm(document.value);
  if (form === "wrapped") known.set(JSON.stringify([]), WRAPPED_FILE_FIELDS);
  for (const object of capabilityObjects(document.value)) {
    known.set(JSON.stringify(object.path), CAPABILITY_FIELDS);
    known.set(JSON.stringify([...object.path, "remote"]), REMOTE_FIELDS);
    const permissions = object.value.permissions;
    if (Array.isArray(permissions))
      permissions.forEach((_, i) =>
        known.set(JSON.stringify([...object.path, "permissions", i]), PERMISSION_ENTRY_FIELDS),
      );
  }
  return repeated.filter((path) =>
    known.get(JSON.stringify(path.slice(0, -1)))?.includes(String(path[path.length - 1])),
  );
}

/** The safe fix of a finding that offers one, in its document (none without a document: a skipped .json5). */
function fixOf(report: LocatedReport, document: SourceDocument | undefined): Fix | undefined {
  if (!document || !report.fix) return undefined;
  work.fixesMade++;
  return report.fix(document);
}

/** A finding's message and hint as one line each, quoted values shortened. */
function wordsOf(
  rule: Pick<Rule, "id" | "messages">,
  report: LocatedReport,
): { message: string; hint: string | undefined } {
  return {
    message: oneLine(shortenQuotedValues(formatMessage(rule, report.messageId, report.data))),
    hint: report.hint ? oneLine(report.hint) : undefined,
  };
}

/**
 * Every entry with its capability, in order. Indexed loops: `flatMap` with a `map` inside ran a
 * callback per entry and per capability and an array per capability (66,660 entries in bench row 2);
 * the pairs live for the run, so they are made by a constructor, which has no allocation site for
 * V8 to pretenure (and throw compiled code away for).
 */
function entryPairs(
  capabilities: readonly Capability[],
): Array<{ capability: Capability; entry: PermissionEntry }> {
  const pairs: EntryPair[] = [];
  for (let index = 0; index < capabilities.length; index++) {
    const capability = capabilities[index]!;
    const permissions = capability.permissions;
    for (let at = 0; at < permissions.length; at++)
      pairs.push(new EntryPair(capability, permissions[at]!));
  }
  return pairs;
}

class EntryPair {
  constructor(
    readonly capability: Capability,
    readonly entry: PermissionEntry,
  ) {}
}

const NO_PROBLEMS: readonly SchemaProblem[] = Object.freeze([]);

/** A finding about a file that has no document (a skipped .json5): its first character. */
const NOWHERE = {
  range: { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } },
  offset: 0,
  length: 0,
};

/** Quoted values from hostile files (a 1 MB identifier) are shortened so a finding stays one readable line. */
function shortenQuotedValues(message: string): string {
  // Nothing quoted can be long in a short message: most findings skip the scan.
  if (message.length < 120 || !hasLongQuotedValue(message)) return message;
  // Quotes pair up from the left: the text between a closing and the next opening quote is the message's own.
  return message.replace(/"([^"]*)"/g, (quoted, value: string) =>
    value.length < 120
      ? quoted
      : `"${cutText(value, 119, { head: 80, tail: 20 })}" (${value.length} characters)`,
  );
}

/** The pairing of the replace above, by `indexOf`: long messages (lists of short names) rarely quote anything long. */
function hasLongQuotedValue(message: string): boolean {
  for (let open = message.indexOf('"'); open !== -1; open = message.indexOf('"', open + 1)) {
    const close = message.indexOf('"', open + 1);
    if (close === -1) return false;
    if (close - open - 1 >= 120) return true;
    open = close;
  }
  return false;
}

/** Line breaks inside quoted values are written as escapes: a finding is one line (compact output, problem matchers). */
function oneLine(text: string): string {
  return text.includes("\n") || text.includes("\r")
    ? text.replace(/\r|\n/g, (c) => (c === "\r" ? "\\r" : "\\n"))
    : text;
}

/**
 * Drops repeats of a finding (same file, position, rule and message) from a list sorted by
 * `compareDiagnostics`, which orders by exactly those: repeats are neighbours, and no key is built.
 */
function dedupeSorted(diagnostics: Diagnostic[]): Diagnostic[] {
  let previous: Diagnostic | undefined;
  return diagnostics.filter((d) => {
    const repeat = previous !== undefined && compareDiagnostics(previous, d) === 0;
    previous = d;
    return !repeat;
  });
}
