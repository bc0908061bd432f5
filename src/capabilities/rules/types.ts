import type { Catalog } from "../catalog/catalog.js";
import type { Resolution, ResolvedModel } from "../engine/index.js";
import type { Fix } from "../../core/diagnostics.js";
import {
  pipelineStepDefiner,
  ruleDefiner,
  type PipelineStep,
  type Rule as CoreRule,
  type RuleMeta,
} from "../../core/lint/rule.js";
import type { FindingFields } from "../../core/lint/run-rules.js";
import type { MessageReport, RuleMessages } from "../../core/messages.js";
import type { Suppression } from "../../core/suppressions.js";
import type { SourceDocument } from "../../core/source/document.js";
import type { Range } from "../../core/location.js";
import type { Project } from "../load/project.js";
import type { Capability, PermissionEntry } from "../model/types.js";

/**
 * A finding as a rule reports it: one of the rule's messageIds with its placeholders' values; the
 * linter adds severity, position and the message text (there is no other way to give a text).
 */
export type RuleReport<M extends RuleMessages = RuleMessages> = ReportedFinding & MessageReport<M>;

/** A report without its file, as the linter handles it once it knows the file. */
export type LocatedReport<M extends RuleMessages = RuleMessages> = Omit<ReportedFinding, "at"> &
  MessageReport<M>;

interface ReportedFinding extends Pick<
  FindingFields,
  "path" | "target" | "hint" | "escalate" | "demote" | "group"
> {
  /** The file: a capability's source, or a document. */
  at: { absolutePath: string };
  /** Where in a file that is no JSON or TOML document (a frontend source file) the finding is; `path` is then empty. */
  span?: { range: Range; offset: number; length: number };
  /** Builds the safe fix from the document's text; called only when the document is JSON. */
  fix?: (document: SourceDocument) => Fix | undefined;
  /** Not accepted: the text comes from the rule's `messages` template named by `messageId`. */
  message?: never;
}

/**
 * What one rule sees: built and frozen per rule by the linter, so `report` knows whose finding it is
 * without any shared mutable state.
 */
export interface RuleContext {
  /** The running rule's metadata. */
  readonly rule: Readonly<RuleMeta>;
  readonly project: Project;
  readonly catalog: Catalog;
  /** Capabilities whose file passed parsing (schema-invalid fields are dropped from the model). */
  readonly capabilities: readonly Capability[];
  /** The document a capability (or any file) came from. */
  document(at: { absolutePath: string }): SourceDocument | undefined;
  /** The platforms this run covers: every target, or those the user picked (`--platform`). */
  readonly platforms: readonly string[];
  /**
   * Every permission entry with its capability: one array made once and shared by the rules. Walk it
   * by index: a `for ... of` allocates an iterator result per entry until the loop is optimised.
   */
  entries(): ReadonlyArray<{ readonly capability: Capability; readonly entry: PermissionEntry }>;
  report(report: RuleReport): void;
  /**
   * The `caplint-disable` entries of the project and whether they suppressed a finding so far. Only
   * final for a rule that runs last (`runsLast`), after every other rule reported.
   */
  suppressions(): readonly Readonly<Suppression>[];
  /** The rules of this domain by id (pipeline steps included), e.g. to check the ids a suppression names. */
  readonly rules: ReadonlyMap<string, Readonly<RuleMeta>>;
  /**
   * The host's resolution of the capabilities the build uses, once per platform this run covers
   * (every platform unless the user picked one), computed on first use and shared by all rules.
   * The engine (and URLPattern) load only when a rule asks.
   */
  resolutions(): Promise<readonly ResolvedModel[]>;
  /**
   * The same resolution as one object over every platform this run covers: problems carry the
   * platforms they hold on, `deniedCommandSets()` gives each denied command once per set of platforms
   * it resolves alike on, and `modelsToJudge()` one model per group of platforms that resolve alike
   * with what earlier models settled, so a rule looks at each difference between platforms once.
   */
  resolution(): Promise<Resolution>;
}

/** A capability rule: the one contract (src/core/lint/rule.ts) over the capability context. */
export type Rule = CoreRule<RuleContext>;

/** A pipeline step listed with the rules (parse, schema): the linter reports its findings itself. */
export type { PipelineStep };

/** The capabilities domain's name: what its rules' `domain` says. */
export const CAPABILITIES_DOMAIN = "capabilities";

/** Declares a capability rule (src/core/lint/rule.ts): `report()` typed by the rule's own messages, the domain stamped. */
export const defineRule = ruleDefiner<RuleContext>(CAPABILITIES_DOMAIN);

/** Declares a pipeline step: metadata only, its findings come from the linter. */
export const definePipelineStep = pipelineStepDefiner(CAPABILITIES_DOMAIN);
