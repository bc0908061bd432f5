import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REGISTRY, RULES } from "../src/registry.js";
import { contractWithRuleRows, readmeWithRuleTables, whyOf } from "../scripts/lib/rule-tables.mjs";
import { ROOT } from "./helpers/run.js";

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const sectionDomain = (heading: string) =>
  REGISTRY.domains.find((domain) => heading.includes(`(\`caplint ${domain.lintCommand}\`)`))?.name;
const pageOf = (id: string) => read(`docs/rules/${id}.md`);

describe("the rule tables are written from the rules' metadata (npm run rule-tables)", () => {
  it("README.md's tables, one per domain, are up to date", () => {
    const readme = read("README.md");
    expect(readme.match(/<!-- rule-table:/g)?.length).toBe(REGISTRY.domains.length);
    expect(readmeWithRuleTables(readme, RULES) === readme, "run npm run rule-tables").toBe(true);
  });

  it("docs/rules/README.md has a row for every rule, with its default severity", () => {
    const contract = read("docs/rules/README.md");
    expect(
      contractWithRuleRows(contract, RULES, sectionDomain, pageOf) === contract,
      "run npm run rule-tables",
    ).toBe(true);
  });

  it("a new rule gets its rows: the README's from its metadata, the contract's justified by its docs page", () => {
    const rule = {
      id: "zz-new-rule",
      domain: "mcp",
      defaultSeverity: "warning",
      fixable: false,
      description: "A new rule.",
      input: "probe",
    };
    const readme = readmeWithRuleTables(read("README.md"), [...RULES, rule]);
    expect(readme).toContain(
      "| [`zz-new-rule`](docs/rules/zz-new-rule.md) | warning | (probe) A new rule. |",
    );
    const page = "# zz-new-rule\n\n## Why\n\nA client | reads it. More follows.\n";
    const contract = contractWithRuleRows(
      read("docs/rules/README.md"),
      [...RULES, rule],
      sectionDomain,
      (id) => (id === rule.id ? page : pageOf(id)),
    );
    const rows = contract.split("\n");
    const at = rows.indexOf(
      "| [`zz-new-rule`](zz-new-rule.md) | warning | — | A client \\| reads it |",
    );
    expect(at).toBeGreaterThan(rows.findIndex((line) => line.startsWith("## Tool servers")));
    expect(whyOf("## Why\n\nNo section")).toBe("No section");
  });
});
