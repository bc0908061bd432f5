import { compareDiagnostics, type Diagnostic, type Severity } from "../core/diagnostics.js";
import type { RuleMeta } from "../core/lint/rule.js";
import type { JsonPath } from "../core/location.js";
import { shownValue } from "../core/messages.js";
import { configuredSeverity, createDiagnostic, FindingBudget, findingSeverity, rulesToStart, type RunSettings } from "../core/lint/run-rules.js";
import { MAX_TOOLS, serverName, type Listing } from "./listing.js";
import { serviceFromServerName } from "./naming.js";
import { MCP_RULES } from "./rules/index.js";
import { definePipelineStep, type McpReport, type McpRuleContext, type McpSettings } from "./rules/types.js";

export interface McpLintOptions extends RunSettings {
  settings: McpSettings;
}

/** Id of the finding for a file that is not JSON at all (shared with capability files). */
export const PARSE_RULE_ID = "parse";

/** The parse finding of `caplint mcp`: the shared JSON reader words the problem, the template passes it through. */
export const PARSE_META: RuleMeta = definePipelineStep({
  id: PARSE_RULE_ID,
  description: "The file is readable JSON.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: { unreadable: "{{problem}}" },
});

/**
 * Lints tool-server listings (files, or the in-memory dump of a live run): every enabled rule on
 * every listing. Findings are positioned through each listing's document, so a live run's findings
 * point into the JSON that `caplint mcp dump` would write.
 */
export async function lintMcp(listings: readonly Listing[], options: McpLintOptions): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  const rules = rulesToStart(MCP_RULES, options);
  for (const listing of listings) {
    const { document } = listing;
    const budget = new FindingBudget();
    const push = (rule: Pick<RuleMeta, "id" | "messages">, severity: Severity, report: McpReport) => {
      if (!budget.admit(rule, severity, document.file, document.absolutePath)) return;
      const located = document.locate(report.path, report.target);
      diagnostics.push(createDiagnostic(rule, severity, report, { file: document.file, absolutePath: document.absolutePath, ...located }));
    };
    if (!document.ok) {
      push(PARSE_META, "error", { path: [], messageId: "unreadable", data: { problem: document.parseError!.message } });
      continue;
    }
    for (const problem of listing.dumpProblems) push(PARSE_META, "error", { path: problem.path, messageId: "unreadable", data: { problem: problem.message } });
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
    for (const rule of rules) {
      const configured = configuredSeverity(rule, options, document.absolutePath);
      if (!configured) continue;
      const context: McpRuleContext = Object.freeze({
        listing,
        settings: options.settings,
        service,
        tools: listing.tools,
        shown: (path: JsonPath, value: unknown) => shownValue(value, typeof value === "number" ? document.writtenText(path) : undefined),
        report: (report: McpReport) => push(rule, findingSeverity(configured, report), report),
      });
      await rule.check(context);
    }
    diagnostics.push(...budget.summaries());
  }
  return diagnostics.sort(compareDiagnostics);
}
