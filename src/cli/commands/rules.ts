import { Option, type Command } from "commander";
import type { SetExitCode } from "../../core/command.js";
import type { MainOptions } from "../../core/io.js";
import { docsUrl } from "../../core/tool.js";
import { DOMAIN_NAMES, REGISTRY, RULES, type DomainName } from "../../registry.js";

export function registerRules(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  program
    .command("rules")
    .description("list every rule of every domain with its default severity and whether it can fix")
    .addOption(new Option("-f, --format <format>", "output format").choices(["text", "json"]).default("text"))
    .addOption(new Option("--domain <name>", "only the rules of one kind of input").choices(DOMAIN_NAMES))
    .action((options: { format: "text" | "json"; domain?: DomainName }) => {
      const rows = RULES.filter((rule) => options.domain === undefined || rule.domain === options.domain).map((rule) => ({
        id: rule.id,
        domain: rule.domain,
        defaultSeverity: rule.defaultSeverity,
        fixable: rule.fixable,
        category: rule.category,
        command: REGISTRY.byId.lintCommandOf(rule.domain),
        description: rule.description,
        docs: `docs/rules/${rule.id}.md`,
        url: docsUrl(rule.id),
      }));
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
