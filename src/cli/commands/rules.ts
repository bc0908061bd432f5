import { Option, type Command } from "commander";
import type { SetExitCode } from "../../core/command.js";
import { didYouMean, nearest } from "../../core/did-you-mean.js";
import { UsageError } from "../../core/errors.js";
import type { MainOptions } from "../../core/io.js";
import { textLines } from "../../core/terminal-text.js";
import type { RuleMeta } from "../../core/lint/rule.js";
import { docsUrl } from "../../core/tool.js";
import { DOMAIN_NAMES, REGISTRY, RULES, type DomainName } from "../../registry.js";

type RuleRow = ReturnType<typeof ruleRow>;

export function registerRules(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  program
    .command("rules")
    .description(
      "list every rule of every domain with its default severity and whether it can fix; with an id, that one rule in full",
    )
    .argument(
      "[id]",
      "one rule: its description, default severity, the command that runs it, its options and its docs",
    )
    .addOption(
      new Option("-f, --format <format>", "output format")
        .choices(["text", "json"])
        .default("text"),
    )
    .addOption(
      new Option("--domain <name>", "only the rules of one kind of input").choices(DOMAIN_NAMES),
    )
    .action((id: string | undefined, options: { format: "text" | "json"; domain?: DomainName }) => {
      if (id !== undefined) {
        const rule = RULES.find((candidate) => candidate.id === id);
        if (!rule)
          throw new UsageError(
            `rules ${id}: no rule has this id${didYouMean(
              nearest(
                id,
                RULES.map((candidate) => candidate.id),
                3,
              ),
            )} (caplint rules lists them)`,
          );
        const row = {
          ...ruleRow(rule),
          pipeline: (rule as RuleMeta).kind === "pipeline",
          options: ruleOptions(program, rule),
        };
        io.stdout.write(
          options.format === "json" ? JSON.stringify(row, null, 2) + "\n" : ruleText(row),
        );
        setExitCode(0);
        return;
      }
      const rows = RULES.filter(
        (rule) => options.domain === undefined || rule.domain === options.domain,
      ).map(ruleRow);
      if (options.format === "json") io.stdout.write(JSON.stringify(rows, null, 2) + "\n");
      else {
        const width = Math.max(...rows.map((r) => r.id.length));
        const domainWidth = Math.max(...rows.map((r) => r.domain.length));
        const severityWidth = Math.max(...rows.map((r) => r.defaultSeverity.length));
        for (const row of rows) {
          io.stdout.write(
            `${row.id.padEnd(width)}  ${row.defaultSeverity.padEnd(severityWidth)}  ${row.fixable ? "fix" : "   "}  ${row.domain.padEnd(domainWidth)}  ${row.description}\n`,
          );
        }
      }
      setExitCode(0);
    });
}

function ruleRow(rule: (typeof RULES)[number]) {
  return {
    id: rule.id,
    domain: rule.domain,
    defaultSeverity: rule.defaultSeverity,
    fixable: rule.fixable,
    category: rule.category,
    command: REGISTRY.byId.lintCommandOf(rule.domain),
    description: rule.description,
    docs: `docs/rules/${rule.id}.md`,
    url: docsUrl(rule.id),
  };
}

/**
 * The command-line options that change what a rule reports: those of the command running it whose
 * description names the rule (`--verbs`: "more action verbs accepted by mcp-tool-verb"). Every rule
 * also takes a severity (`--rule ID=SEVERITY`, the config's `rules`), said once in the text.
 */
function ruleOptions(
  program: Command,
  rule: (typeof RULES)[number],
): Array<{ flags: string; description: string }> {
  const command = program.commands.find(
    (candidate) => candidate.name() === REGISTRY.byId.lintCommandOf(rule.domain),
  );
  const naming = new RegExp(`(^|[^a-z-])${rule.id}([^a-z-]|$)`);
  return (command?.options ?? [])
    .filter((option) => naming.test(option.description))
    .map((option) => ({ flags: option.flags, description: option.description }));
}

function ruleText(
  row: RuleRow & { pipeline: boolean; options: Array<{ flags: string; description: string }> },
): string {
  const { pipeline } = row;
  return textLines([
    `${row.id}: ${row.description}`,
    `  severity  ${row.defaultSeverity} by default${pipeline ? " (always; it cannot be turned off)" : `; --rule ${row.id}=off|suggestion|warning|error, or "rules" in caplint.config.json`}`,
    `  category  ${row.category}; ${row.fixable ? "fixable with --fix" : "no automatic fix"}`,
    `  run by    caplint ${row.command}`,
    ...(row.options.length
      ? row.options.map(
          (option, i) =>
            `  ${i === 0 ? "options " : "        "}  ${option.flags}  ${option.description}`,
        )
      : []),
    `  docs      ${row.url}`,
  ]);
}
