import type { JsonPath, RuleMeta } from "../core.js";
import type { Listing, ToolEntry } from "../listing.js";
import type { ServerNameStyle } from "../naming.js";

export interface McpSettings {
  serverNameStyle: ServerNameStyle;
  /** The service prefix when the listing has no server name (`--service`); wins over the derived one. */
  service?: string;
  verbs: ReadonlySet<string>;
}

export interface McpReport {
  path: JsonPath;
  target?: "key" | "value";
  message: string;
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
  report(report: McpReport): void;
}

/**
 * Where a rule's facts come from: the listing alone (`static`, any input), how a live server
 * behaved (`live`: transport and stdout), or tool calls made by `--probe`.
 */
export type McpRuleInput = "static" | "live" | "probe";

export interface McpRule extends RuleMeta {
  domain: "mcp";
  input: McpRuleInput;
  check(context: McpRuleContext): void | Promise<void>;
}

export function defineMcpRule<const R extends McpRule>(rule: R): R {
  return rule;
}
