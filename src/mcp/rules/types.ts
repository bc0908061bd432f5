import type { JsonPath, MessageReport, RuleMessages, RuleMeta } from "../core.js";
import type { Listing, ToolEntry } from "../listing.js";
import type { ServerNameStyle } from "../naming.js";

export interface McpSettings {
  serverNameStyle: ServerNameStyle;
  /** The service prefix when the listing has no server name (`--service`); wins over the derived one. */
  service?: string;
  verbs: ReadonlySet<string>;
}

/** A finding as a rule reports it: one of the rule's messageIds with its placeholders' values. */
export type McpReport<M extends RuleMessages = RuleMessages> = McpFinding & MessageReport<M>;

interface McpFinding {
  path: JsonPath;
  target?: "key" | "value";
  hint?: string;
  /** Raise the finding to an error whatever the rule's configured severity (an "off" rule stays off). */
  escalate?: boolean;
}

export interface McpRuleContext {
  readonly listing: Listing;
  readonly settings: McpSettings;
  /** The service prefix: `--service`, else taken from `serverInfo.name`. */
  readonly service: string | undefined;
  readonly tools: readonly ToolEntry[];
  /** A value at `path` for a message: a number as the listing writes it (`1e400`), others as JSON. */
  shown(path: JsonPath, value: unknown): string;
  report(report: McpReport): void;
}

/**
 * Where a rule's facts come from: the listing alone (`static`, any input), how a live server
 * behaved (`live`: transport and stdout), or tool calls made by `--probe`.
 */
export type McpRuleInput = "static" | "live" | "probe";

/** The context a rule's own `check` sees: `report()` accepts only the rule's messageIds. */
export interface McpRuleContextFor<M extends RuleMessages> extends McpRuleContext {
  report(report: McpReport<M>): void;
}

export interface McpRule extends RuleMeta {
  domain: "mcp";
  input: McpRuleInput;
  check(context: McpRuleContext): void | Promise<void>;
}

export interface McpRuleFor<M extends RuleMessages> extends McpRule {
  messages: M;
  check(context: McpRuleContextFor<M>): void | Promise<void>;
}

/** Declares a tool-server rule: the literal stays type-checked, and report() is typed by its messages. */
export function defineMcpRule<const Id extends string, const M extends RuleMessages>(rule: Omit<McpRuleFor<M>, "id"> & { id: Id }): McpRuleFor<M> & { id: Id } {
  return rule;
}

/**
 * A finding the `caplint mcp` pipeline reports itself (no `check`): always an error, listed with the
 * rules for docs, config and SARIF.
 */
export function definePipelineStep<const Id extends string, const M extends RuleMessages>(
  step: Omit<RuleMeta, "domain" | "id" | "kind" | "messages"> & { id: Id; messages: M },
): RuleMeta & { id: Id; domain: "mcp"; kind: "pipeline"; messages: M } {
  return { ...step, kind: "pipeline", domain: "mcp" };
}
