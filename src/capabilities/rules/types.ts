import type { Catalog } from "../catalog/catalog.js";
import type { Resolution, ResolvedModel } from "../engine/index.js";
import type { Fix } from "../../core/diagnostics.js";
import type { RuleMeta } from "../../core/rule.js";
import type { MessageReport, RuleMessages } from "../../core/messages.js";
import type { Suppression } from "../../core/suppressions.js";
import type { JsonPath } from "../../core/location.js";
import type { SourceDocument } from "../../core/source/document.js";
import type { Project } from "../load/project.js";
import type { Capability, PermissionEntry } from "../model/types.js";

/**
 * A finding as a rule reports it: one of the rule's messageIds with its placeholders' values; the
 * linter adds severity, position and the message text (there is no other way to give a text).
 */
export type RuleReport<M extends RuleMessages = RuleMessages> = ReportedFinding & MessageReport<M>;

/** A report without its file, as the linter handles it once it knows the file. */
export type LocatedReport<M extends RuleMessages = RuleMessages> = Omit<ReportedFinding, "at"> & MessageReport<M>;

interface ReportedFinding {
  /** The file: a capability's source, or a document. */
  at: { absolutePath: string };
  path: JsonPath;
  target?: "key" | "value";
  /** How to fix it, in one line. */
  hint?: string | undefined;
  /** Raise a warning to an error (a dangerous grant reachable from remote pages); an "off" rule stays off. */
  escalate?: boolean;
  /** Lower an error to a warning (the problem does not break the build here); an "off" rule stays off. */
  demote?: boolean;
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
  readonly rule: Readonly<CapabilityRuleMeta>;
  readonly project: Project;
  readonly catalog: Catalog;
  /** Capabilities whose file passed parsing (schema-invalid fields are dropped from the model). */
  readonly capabilities: readonly Capability[];
  /** The document a capability (or any file) came from. */
  document(at: { absolutePath: string }): SourceDocument | undefined;
  /** The platforms this run covers: every target, or those the user picked (`--platform`). */
  readonly platforms: readonly string[];
  /** Every permission entry with its capability. */
  entries(): Iterable<{ capability: Capability; entry: PermissionEntry }>;
  report(report: RuleReport): void;
  /**
   * The `caplint-disable` entries of the project and whether they suppressed a finding so far. Only
   * final for a rule that runs last (`runsLast`), after every other rule reported.
   */
  suppressions(): readonly Readonly<Suppression>[];
  /** The rules of this domain by id (pipeline steps included), e.g. to check the ids a suppression names. */
  readonly rules: ReadonlyMap<string, Readonly<CapabilityRuleMeta>>;
  /**
   * The host's resolution of the capabilities the build uses, once per platform this run covers
   * (every platform unless the user picked one), computed on first use and shared by all rules.
   * The engine (and URLPattern) load only when a rule asks.
   */
  resolutions(): Promise<readonly ResolvedModel[]>;
  /**
   * The same resolution as one object over every platform this run covers: problems carry the
   * platforms they hold on, and `distinctModels` has one model per group of platforms that resolve
   * alike, so a rule looks at each difference between platforms once.
   */
  resolution(): Promise<Resolution>;
}

/** What the registry, config and reporters know of a capability rule or pipeline step. */
export interface CapabilityRuleMeta extends RuleMeta {
  domain: "capabilities";
  /** Reads `context.suppressions()`, so it runs after every other rule. */
  runsLast?: boolean;
}

/** A pipeline step listed with the rules (parse, schema): the linter reports its findings itself. */
export interface PipelineStep<M extends RuleMessages = RuleMessages> extends CapabilityRuleMeta {
  kind: "pipeline";
  messages: M;
}

/**
 * The context a rule's own `check` sees: `report()` accepts only the rule's messageIds, each with its
 * placeholders. Helpers shared by rules take the plain RuleContext.
 */
export interface RuleContextFor<M extends RuleMessages> extends RuleContext {
  report(report: RuleReport<M>): void;
}

export interface Rule extends CapabilityRuleMeta {
  kind?: "rule";
  check(context: RuleContext): void | Promise<void>;
}

/** A rule as `defineRule` declares it: its `check` sees a context typed by its own messages. */
export interface RuleFor<M extends RuleMessages> extends Rule {
  messages: M;
  check(context: RuleContextFor<M>): void | Promise<void>;
}

/**
 * Declares a capability rule: keeps the literal type-checked (arethetypeswrong's `defineCheck`),
 * types `report()` by the rule's own messages, and stamps the rule's domain.
 */
export function defineRule<const Id extends string, const M extends RuleMessages>(
  rule: Omit<RuleFor<M>, "domain" | "id"> & { id: Id },
): RuleFor<M> & { id: Id; domain: "capabilities" } {
  return { ...rule, domain: "capabilities" };
}

/** Declares a pipeline step: metadata only, its findings come from the linter. */
export function definePipelineStep<const Id extends string, const M extends RuleMessages>(
  step: Omit<PipelineStep<M>, "domain" | "id" | "kind"> & { id: Id },
): PipelineStep<M> & { id: Id; domain: "capabilities" } {
  return { ...step, kind: "pipeline", domain: "capabilities" };
}
