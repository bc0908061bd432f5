import { compareDiagnostics, type Diagnostic } from "../core/diagnostics.js";
import type { JsonPath } from "../core/location.js";
import { shownValue } from "../core/messages.js";
import { RuleRun, type FindingInput, type RunSettings } from "../core/lint/run-rules.js";
import { MAX_TOOLS, serverName, type Listing } from "./listing.js";
import { serviceFromServerName } from "./naming.js";
import { MCP_RULES } from "./rules/index.js";
import {
  definePipelineStep,
  type McpReport,
  type McpRuleContext,
  type McpSettings,
} from "./rules/types.js";

export interface McpLintOptions extends RunSettings {
  settings: McpSettings;
}

/** The parse finding of `caplint mcp`: the shared JSON reader words the problem, the template passes it through. */
export const PARSE_META = definePipelineStep({
  id: "parse",
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
export async function lintMcp(
  listings: readonly Listing[],
  options: McpLintOptions,
): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  for (const listing of listings) {
    const { document } = listing;
    const run = new RuleRun<McpReport>({ settings: options });
    const input: FindingInput<McpReport> = {
      file: document.file,
      absolutePath: document.absolutePath,
      locate: (report) => document.locate(report.path, report.target),
    };
    const parseProblem = (path: JsonPath, problem: string) =>
      run.report(PARSE_META, { path, messageId: "unreadable", data: { problem } }, input);
    if (!document.ok) {
      parseProblem([], document.parseError!.message);
      diagnostics.push(...run.finish());
      continue;
    }
    for (const problem of listing.dumpProblems) parseProblem(problem.path, problem.message);
    if (listing.tools.length > MAX_TOOLS) {
      const extra = listing.tools[MAX_TOOLS]!;
      parseProblem(
        extra.path,
        `the listing has ${listing.tools.length.toLocaleString("en")} tools; caplint lints the first ${MAX_TOOLS.toLocaleString("en")} (no real server lists more)`,
      );
      listing.tools = listing.tools.slice(0, MAX_TOOLS);
    }
    const name = serverName(listing);
    const service =
      options.settings.service ?? (name === undefined ? undefined : serviceFromServerName(name));
    // A rule that is off for this listing is not started.
    const rules = MCP_RULES.filter((rule) => run.severityOf(rule, document.absolutePath));
    await run.start(rules, (_rule, report): McpRuleContext => ({
      listing,
      settings: options.settings,
      service,
      tools: listing.tools,
      shown: (path: JsonPath, value: unknown) =>
        shownValue(value, typeof value === "number" ? document.writtenText(path) : undefined),
      report: (finding: McpReport) => report(finding, input),
    }));
    diagnostics.push(...run.finish());
  }
  return diagnostics.sort(compareDiagnostics);
}
