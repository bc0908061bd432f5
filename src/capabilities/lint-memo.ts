/**
 * Rules run again only over what an edit can change (an editor's re-check, through a
 * {@link CheckSession}). Each rule's raw reports of the last lint are kept with what they depended on,
 * and a lint that finds those inputs unchanged hands the same reports to the one finding pipeline
 * again (severity, suppressions, budget, position, text) instead of running the rule:
 * - a rule declared `scope: "document"` (src/core/lint/rule.ts) runs only over the files whose parsed
 *   value changed; its reports about the others are kept. It always runs through a view that holds
 *   only the files it is to check and refuses reads of any other input, so the declaration is checked
 *   on every run, the command line's included;
 * - any other rule runs again when the value of any capability file changed, or what else it was seen
 *   to read on its last run: the text of a document (a finding that names a line, or quotes a value as
 *   written), the frontend scan, the project's other fields;
 * - a rule that runs last (unused-suppression reads what the others suppressed) runs again when
 *   any other rule ran again, or what it read changed.
 * An edit that leaves every file's parsed value as it was (whitespace, formatting) re-runs only rules
 * that read the edited document's text; the findings are placed in the new text all the same.
 */
import {
  RuleRun,
  rulesToStart,
  type BoundReport,
  type FindingInput,
} from "../core/lint/run-rules.js";
import { RuleContractError } from "../core/messages.js";
import type { SourceDocument } from "../core/source/document.js";
import type { RuleMeta } from "../core/lint/rule.js";
import type { FrontendScan } from "./frontend/scan.js";
import type { Project } from "./load/project.js";
import type { Capability, PermissionEntry } from "./model/types.js";
import type { LocatedReport, PipelineStep, Rule, RuleContext, RuleReport } from "./rules/types.js";

/** One finding a rule handed the pipeline: enough to hand it again. */
interface Recorded {
  finding: LocatedReport;
  /** The file it is about, as the rule named it (`at`). */
  at: string;
}

/** What a rule of the whole input read on its last run, besides the capabilities' values. */
interface Reads {
  /** Documents whose text it read (`context.document`, or more than a file's name and value from `project.documents`). */
  documents: Set<string>;
  /** Other fields of the project it read. */
  fields: Set<string>;
}

type RuleMemo =
  | { scope: "document"; fixed: string; units: Map<string, { key: string; reports: Recorded[] }> }
  | { scope: "input"; fixed: string; key: string[]; reads: Reads; reports: Recorded[] };

/** Counts of the last lint's work, for tests (work counted, never timed). */
export interface LintWork {
  /** Rules whose `check` ran, by id, and the files each ran over ("*" for all). */
  ran: Map<string, string[] | "*">;
  /** Rules whose last findings were handed on without running them. */
  replayed: string[];
}

/** The memo an editor's session keeps per app between lints (see {@link CheckSession}). */
export class LintMemo {
  readonly rules = new Map<string, RuleMemo>();
  /** What the last lint did. */
  work: LintWork = { ran: new Map(), replayed: [] };
  /** Findings already placed in a document: an unchanged document keeps its findings' positions and texts. */
  readonly placed = new WeakMap<object, { document: SourceDocument | undefined; span: unknown }>();
  readonly worded = new WeakMap<object, { message: string; hint?: string | undefined }>();
}

/** Project fields a rule of one document may read: inputs every file shares, which a re-check keeps. */
const SHARED_FIELDS = new Set<PropertyKey>([
  "cwd",
  "srcTauri",
  "catalog",
  "config",
  "versions",
  "build",
  "codeWindows",
]);

/** Fields every rule's key already covers: the shared inputs and the capabilities' values. */
const COVERED_FIELDS = new Set<PropertyKey>([
  ...SHARED_FIELDS,
  "capabilities",
  "activeCapabilities",
]);

const ids = new WeakMap<object, number>();
let nextId = 0;
/** A number per object, the same while it lives: the identity of an input that is never changed in place. */
function identity(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  let id = ids.get(value);
  if (id === undefined) ids.set(value, (id = ++nextId));
  return `#${id}`;
}

const valueKeys = new WeakMap<SourceDocument, string>();
/** What rules read of a capability document: its format and parsed value (its text only through `context.document`). */
function valueKey(document: SourceDocument): string {
  let key = valueKeys.get(document);
  if (key === undefined) {
    key = document.ok
      ? `${document.format}\u0000${JSON.stringify(document.value)}`
      : `unreadable ${identity(document)}`;
    valueKeys.set(document, key);
  }
  return key;
}

/**
 * The frontend scan by content, without reading it: a scan that parsed no module again took every
 * module's facts from the last scan's cache, whose texts it found unchanged, so over the same files it
 * is the last scan again (the app config and the windows made in code, which it also reads, are shared
 * inputs: a change of them loads everything again). A scan that parsed a module is new.
 */
function frontendKey(scan: FrontendScan | undefined): string {
  if (!scan) return "none";
  return scan.parsed === 0 ? `unchanged ${JSON.stringify(scan.files)}` : `new ${identity(scan)}`;
}

/** The files rules of one document are given: every capability document, and the files of other capabilities (inline in the app config). */
function unitsOf(project: Project): Map<string, string> {
  const units = new Map<string, string>();
  for (const document of project.documents) units.set(document.absolutePath, valueKey(document));
  for (const capability of project.capabilities) {
    const file = capability.source.absolutePath;
    // Inline capabilities of the app config, which a re-check never changes (a config edit loads everything again).
    if (!units.has(file)) units.set(file, `config ${identity(project.config)}`);
  }
  return units;
}

/** The inputs shared by every file: when one changes, every rule runs again. */
function fixedKey(project: Project): string {
  return [
    project.cwd,
    project.srcTauri ?? "",
    ...[
      project.catalog,
      project.config,
      project.build,
      project.versions,
      project.codeWindows,
      project.manifestDifferences,
    ].map(identity),
    ...project.permissionDocuments.map(identity),
  ].join(" ");
}

/** What a project field read by a rule is, as a key: strings by value, objects by identity. */
function fieldKey(project: Project, field: string): string {
  if (field === "frontend") return frontendKey(project.frontend);
  const value = (project as unknown as Record<string, unknown>)[field];
  if (Array.isArray(value))
    return `[${value.map((item) => (typeof item === "object" ? identity(item) : JSON.stringify(item))).join(",")}]`;
  return identity(value);
}

function inputKey(project: Project, units: Map<string, string>, reads: Reads): string[] {
  const key: string[] = [];
  for (const [file, value] of units) key.push(file, value);
  // The texts it read, by identity (a document is made anew only when its text changed).
  for (const file of [...reads.documents].sort()) {
    const document = project.documents.find((candidate) => candidate.absolutePath === file);
    key.push(`${file} ${document ? identity(document) : "none"}`);
  }
  for (const field of [...reads.fields].sort()) key.push(`${field} ${fieldKey(project, field)}`);
  return key;
}

function sameKey(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index]);
}

/** A rule run that notes, while `recording` is set, each finding a rule hands it. */
export class RecordingRuleRun extends RuleRun<LocatedReport> {
  recording: Recorded[] | undefined;

  override report(
    rule: RuleMeta,
    finding: LocatedReport,
    input: FindingInput<LocatedReport>,
  ): void {
    this.recording?.push({
      finding,
      at: (finding as Partial<RuleReport>).at?.absolutePath ?? input.absolutePath,
    });
    super.report(rule, finding, input);
  }
}

export interface StartOptions {
  project: Project;
  memo: LintMemo | undefined;
  /** The platforms the run covers, an input every file shares (see `buildImpactOf`). */
  platforms: readonly string[];
  /** Hands a kept finding to the pipeline again, placed in this lint's document of its file. */
  replay(rule: RuleMeta, finding: LocatedReport, at: string): void;
}

/**
 * Starts the rules as `RuleRun.start` does (in `rulesToStart`'s order, each with its frozen context),
 * rules of one document through their view; with a memo, each only over what changed since its last run.
 */
export async function startRules(
  run: RuleRun<LocatedReport>,
  rules: ReadonlyArray<Rule | PipelineStep>,
  settings: ConstructorParameters<typeof RuleRun>[0]["settings"],
  contextFor: (rule: Rule, report: BoundReport<LocatedReport>) => RuleContext,
  { project, memo, replay, platforms }: StartOptions,
): Promise<void> {
  const contextOf = (rule: Rule) =>
    contextFor(rule, (finding, input) => run.report(rule, finding, input));
  if (!memo) {
    for (const rule of rulesToStart(rules, settings)) {
      const context = contextOf(rule);
      await rule.check(
        Object.freeze(rule.scope === "document" ? documentView(rule, context, undefined) : context),
      );
    }
    return;
  }
  const recorder = run as RecordingRuleRun;
  const units = unitsOf(project);
  const fixed = `${fixedKey(project)} ${JSON.stringify(platforms)}`;
  const work: LintWork = { ran: new Map(), replayed: [] };
  memo.work = work;
  const seen = new Set<string>();
  for (const rule of rulesToStart(rules, settings)) {
    seen.add(rule.id);
    const last = memo.rules.get(rule.id);
    if (rule.scope === "document") {
      const kept = last?.scope === "document" && last.fixed === fixed ? last.units : undefined;
      const next = new Map<string, { key: string; reports: Recorded[] }>();
      const changed = new Set<string>();
      for (const [file, key] of units) {
        const before = kept?.get(file);
        if (before && before.key === key) {
          next.set(file, before);
          for (const recorded of before.reports) replay(rule, recorded.finding, recorded.at);
        } else {
          changed.add(file);
          next.set(file, { key, reports: [] });
        }
      }
      if (changed.size > 0) {
        const recorded: Recorded[] = [];
        recorder.recording = recorded;
        try {
          await rule.check(
            Object.freeze(documentView(rule, contextOf(rule), kept ? changed : undefined)),
          );
        } finally {
          recorder.recording = undefined;
        }
        for (const report of recorded) next.get(report.at)!.reports.push(report);
        work.ran.set(rule.id, kept ? [...changed] : "*");
      } else work.replayed.push(rule.id);
      memo.rules.set(rule.id, { scope: "document", fixed, units: next });
      continue;
    }
    if (
      last?.scope === "input" &&
      last.fixed === fixed &&
      // A rule that runs last reads what the others suppressed: the same only when none ran again.
      (!rule.runsLast || work.ran.size === 0) &&
      sameKey(last.key, inputKey(project, units, last.reads))
    ) {
      for (const recorded of last.reports) replay(rule, recorded.finding, recorded.at);
      work.replayed.push(rule.id);
      continue;
    }
    const reads: Reads = { documents: new Set(), fields: new Set() };
    const recorded: Recorded[] = [];
    recorder.recording = recorded;
    try {
      await rule.check(Object.freeze(trackingView(contextOf(rule), reads)));
    } finally {
      recorder.recording = undefined;
    }
    work.ran.set(rule.id, "*");
    memo.rules.set(rule.id, {
      scope: "input",
      fixed,
      key: inputKey(project, units, reads),
      reads,
      reports: recorded,
    });
  }
  // A rule turned off since (a setting) keeps nothing.
  for (const id of memo.rules.keys()) if (!seen.has(id)) memo.rules.delete(id);
}

/**
 * A rule of one document's context: the capabilities, entries and documents of `files` only (all
 * files when undefined), the shared inputs, and a contract error for a read of anything else.
 */
export function documentView(
  rule: RuleMeta,
  context: RuleContext,
  files: ReadonlySet<string> | undefined,
): RuleContext {
  const breach = (what: string): never => {
    throw new RuleContractError(
      rule.id,
      `declares scope "document" but read ${what}: only the file it checks and the inputs every file shares are its to read`,
    );
  };
  const project = context.project;
  const inScope = (file: string) => files === undefined || files.has(file);
  const capabilities =
    files === undefined
      ? project.capabilities
      : project.capabilities.filter((capability) => files.has(capability.source.absolutePath));
  const documents =
    files === undefined
      ? project.documents
      : project.documents.filter((document) => files.has(document.absolutePath));
  let entries: ReadonlyArray<{ capability: Capability; entry: PermissionEntry }> | undefined;
  const view = new Proxy(project, {
    get(target, field, receiver) {
      if (field === "capabilities") return capabilities;
      if (field === "documents") return documents;
      if (SHARED_FIELDS.has(field)) return Reflect.get(target, field, receiver) as unknown;
      return breach(`project.${String(field)}`);
    },
  });
  // Every field written out, as the context itself is (src/capabilities/lint.ts): no spread per rule.
  return {
    rule: context.rule,
    catalog: context.catalog,
    platforms: context.platforms,
    rules: context.rules,
    project: view,
    capabilities,
    entries: () =>
      files === undefined
        ? context.entries()
        : (entries ??= capabilities.flatMap((capability) =>
            capability.permissions.map((entry) => ({ capability, entry })),
          )),
    document: (at) =>
      inScope(at.absolutePath) ? context.document(at) : breach(`another file (${at.absolutePath})`),
    resolution: () => breach("the resolution (it depends on every file)"),
    resolutions: () => breach("the resolution (it depends on every file)"),
    suppressions: () => breach("the suppressions' use (it depends on every rule)"),
    report: (report) =>
      inScope(report.at.absolutePath)
        ? context.report(report)
        : breach(`nothing, yet reported in another file (${report.at.absolutePath})`),
  };
}

/** What a document says beyond its text: its file and parsed value, which every rule's key covers. */
const VALUE_FIELDS = new Set<PropertyKey>(["absolutePath", "file", "ok", "format", "value"]);

/** A rule of the whole input's context, noting which documents' texts and which other project fields it reads. */
function trackingView(context: RuleContext, reads: Reads): RuleContext {
  const readText = (file: string) => {
    reads.documents.add(file);
  };
  let documents: SourceDocument[] | undefined;
  const project = new Proxy(context.project, {
    get(target, field, receiver) {
      // The documents as views: reading a file's name, `ok` or value is no read of its text.
      if (field === "documents")
        return (documents ??= target.documents.map((document) => textWatch(document, readText)));
      if (typeof field === "string" && !COVERED_FIELDS.has(field)) reads.fields.add(field);
      return Reflect.get(target, field, receiver) as unknown;
    },
  });
  return {
    ...context,
    project,
    document: (at) => {
      readText(at.absolutePath);
      return context.document(at);
    },
  };
}

/** A document that notes a read of anything but its file and value (its text, positions, written forms). */
function textWatch(document: SourceDocument, readText: (file: string) => void): SourceDocument {
  return new Proxy(document, {
    get(target, field) {
      if (!VALUE_FIELDS.has(field)) readText(target.absolutePath);
      const value = Reflect.get(target, field, target) as unknown;
      return typeof value === "function"
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

/** A finding's position in its document, found once per document (an unchanged document keeps its findings' positions). */
export function placeOnce<S>(
  memo: LintMemo | undefined,
  document: SourceDocument | undefined,
  finding: object,
  locate: () => S,
): S {
  if (!memo) return locate();
  const known = memo.placed.get(finding);
  if (known && known.document === document) return known.span as S;
  const span = locate();
  memo.placed.set(finding, { document, span });
  return span;
}

/** A finding's text, worded once. */
export function wordOnce(
  memo: LintMemo | undefined,
  finding: object,
  word: () => { message: string; hint?: string | undefined },
): { message: string; hint?: string | undefined } {
  if (!memo) return word();
  let text = memo.worded.get(finding);
  if (!text) memo.worded.set(finding, (text = word()));
  return text;
}
