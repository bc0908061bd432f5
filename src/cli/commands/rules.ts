import { Option, type Command } from "commander";
import { RULES } from "../../rules/index.js";
import { EVENT_RULES } from "../../events/rules.js";
import { docsUrl, type MainOptions } from "../io.js";
import type { SetExitCode } from "./index.js";

export function registerRules(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  program
    .command("rules")
    .description("list every rule with its default severity and whether it can fix")
    .addOption(new Option("-f, --format <format>", "output format").choices(["text", "json"]).default("text"))
    .action((options: { format: "text" | "json" }) => {
      const rows = [...RULES.map((rule) => ({ rule, command: "check" })), ...EVENT_RULES.map((rule) => ({ rule, command: "events" }))].map(({ rule, command }) => ({
        id: rule.id,
        defaultSeverity: rule.defaultSeverity,
        fixable: rule.fixable,
        category: rule.category,
        command,
        description: rule.description,
        docs: `docs/rules/${rule.id}.md`,
        url: docsUrl(rule.id),
      }));
      if (options.format === "json") io.stdout.write(JSON.stringify(rows, null, 2) + "\n");
      else {
        const width = Math.max(...rows.map((r) => r.id.length));
        for (const row of rows) {
          io.stdout.write(`${row.id.padEnd(width)}  ${row.defaultSeverity.padEnd(7)}  ${row.fixable ? "fix" : "   "}  ${row.description}\n`);
        }
      }
      setExitCode(0);
    });
}
