import { compareDiagnostics, formatMessage, shownValue, type Diagnostic, type JsonPath, type RuleMeta, type RuleSetting, type Severity } from "./core.js";
import { MAX_TOOLS, serverName, type Listing } from "./listing.js";
import { serviceFromServerName } from "./naming.js";
import { MCP_RULES } from "./rules/index.js";
import type { McpReport, McpRule, McpRuleContext, McpSettings } from "./rules/types.js";

export interface McpLintOptions {
  settings: McpSettings;
  /** The configured severity of a rule for a file, or undefined for the rule's default. */
  severityFor?: (ruleId: string, absolutePath: string) => RuleSetting | undefined;
  /** When given, only these rules run. */
  only?: ReadonlySet<string>;
}

/** Id of the finding for a file that is not JSON at all (shared with capability files). */
export const PARSE_RULE_ID = "parse";

/** The parse finding of `caplint mcp`: the shared JSON reader words the problem, the template passes it through. */
export const PARSE_META: RuleMeta = {
  id: PARSE_RULE_ID,
  domain: "mcp",
  description: "The file is readable JSON.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  kind: "pipeline",
  messages: { unreadable: "{{problem}}" },
};

/**
 * Lints tool-server listings (files, or the in-memory dump of a live run): every enabled rule on
 * every listing. Findings are positioned through each listing's document, so a live run's findings
 * point into the JSON that `caplint mcp dump` would write.
 */
export async function lintMcp(listings: readonly Listing[], options: McpLintOptions): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  const severityOf = (rule: McpRule, absolutePath: string): Severity | undefined => {
    const setting = options.severityFor?.(rule.id, absolutePath) ?? rule.defaultSeverity;
    return setting === "off" ? undefined : setting;
  };
  for (const listing of listings) {
    const { document } = listing;
    const push = (rule: Pick<RuleMeta, "id" | "messages">, severity: Severity, report: McpReport) => {
      const message = formatMessage(rule, report.messageId, report.data);
      const located = document.locate(report.path, report.target);
      const diagnostic: Diagnostic = {
        ruleId: rule.id,
        messageId: report.messageId,
        severity,
        message,
        file: document.file,
        absolutePath: document.absolutePath,
        path: report.path,
        range: located.range,
        offset: located.offset,
        length: located.length,
      };
      if (report.hint) diagnostic.hint = report.hint;
      if (report.data && Object.keys(report.data).length > 0) diagnostic.data = report.data;
      diagnostics.push(diagnostic);
    };
    if (!document.ok) {
      push(PARSE_META, "error", { path: [], messageId: "unreadable", data: { problem: forToolServers(document.parseError!.message) } });
      continue;
    }
    if (listing.tools.length > MAX_TOOLS) {
      const extra = listing.tools[MAX_TOOLS]!;
      push(PARSE_META, "error", {
        path: extra.path,
        messageId: "unreadable",
        data: {
          problem: `the listing has ${listing.tools.length.toLocaleString("en")} tools; caplint lints the first ${MAX_TOOLS.toLocaleString("en")} (no real server lists more)`,
        },
      });
      listing.tools = listing.tools.slice(0, MAX_TOOLS);
    }
    const name = serverName(listing);
    const service = options.settings.service ?? (name === undefined ? undefined : serviceFromServerName(name));
    for (const rule of MCP_RULES) {
      if (options.only && !options.only.has(rule.id)) continue;
      const configured = severityOf(rule, document.absolutePath);
      if (!configured) continue;
      const context: McpRuleContext = Object.freeze({
        listing,
        settings: options.settings,
        service,
        tools: listing.tools,
        shown: (path: JsonPath, value: unknown) => shownValue(value, typeof value === "number" ? document.writtenText(path) : undefined),
        report: (report: McpReport) => push(rule, report.escalate ? "error" : configured, report),
      });
      await rule.check(context);
    }
  }
  return diagnostics.sort(compareDiagnostics);
}

/** The shared parser words its pre-checks for capability files and the host (the desktop framework) that reads them. */
const TOOL_SERVER_WORDING: ReadonlyArray<readonly [string, string]> = [
  ["a capability object or array", "a tools/list result or a caplint mcp dump"],
  ["no capability file needs that", "no tools/list result needs that"],
  ["which the host's parser rejects", "which JSON.parse and MCP clients reject"],
  ["(the host's parser rejects it)", "(strict JSON parsers reject it)"],
];

function forToolServers(message: string): string {
  let worded = message;
  for (const [capability, toolServer] of TOOL_SERVER_WORDING) worded = worded.replace(capability, toolServer);
  return worded;
}
