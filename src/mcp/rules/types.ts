import type { MessageReport, RuleMessages } from "../../core/messages.js";
import { pipelineStepDefiner, ruleDefiner, type Rule } from "../../core/lint/rule.js";
import type { FindingFields } from "../../core/lint/run-rules.js";
import type { JsonPath } from "../../core/location.js";
import type { Listing, ToolEntry } from "../listing.js";
import type { ServerNameStyle } from "../naming.js";

export interface McpSettings {
  serverNameStyle: ServerNameStyle;
  /** The service prefix when the listing has no server name (`--service`); wins over the derived one. */
  service?: string;
  verbs: ReadonlySet<string>;
  /** `--list-tools`: tool names pinned as list tools (true) or not (false, written `!name`). */
  listTools: ReadonlyMap<string, boolean>;
}

/** A finding as a rule reports it: one of the rule's messageIds with its placeholders' values. */
export type McpReport<M extends RuleMessages = RuleMessages> = McpFinding & MessageReport<M>;

type McpFinding = Pick<FindingFields, "path" | "target" | "hint" | "escalate">;

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

/** A tool-server rule: the one contract (src/core/lint/rule.ts) over the listing context, and where its facts come from. */
export type McpRule = Rule<McpRuleContext> & { input: McpRuleInput };

/** The tool-server domain's name: what its rules' `domain` says. */
export const MCP_DOMAIN = "mcp";

/** Declares a tool-server rule: the literal stays type-checked, report() is typed by its messages, the domain stamped. */
export const defineMcpRule = ruleDefiner<McpRuleContext, { input: McpRuleInput }>(MCP_DOMAIN);

/**
 * A finding the `caplint mcp` pipeline reports itself (no `check`): always an error, listed with the
 * rules for docs, config and SARIF.
 */
export const definePipelineStep = pipelineStepDefiner(MCP_DOMAIN);
