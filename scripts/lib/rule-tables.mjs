// The rule tables of README.md and docs/rules/README.md, written from the rules' metadata (id, domain,
// defaultSeverity, fixable, description, an mcp rule's input) so that a new rule adds no row by hand.
// scripts/rule-tables.mjs writes them; test/rule-tables.test.ts fails when they are not up to date.
//
// README.md: each domain's table sits between `<!-- rule-table:DOMAIN -->` and `<!-- /rule-table -->`
// and is written whole (sorted by id). docs/rules/README.md (the severity contract): the rows are
// written by hand in an order that groups them, and stay; the generator keeps each row's default in
// step with the metadata, drops the rows of rules that are gone, and appends a row for a new rule
// (raised / lowered "—", the justification the first sentence of its docs page's "## Why" section),
// which its author then moves or rewords.

// Types: rule-tables.d.mts.

const README_HEADERS = {
  capabilities: ["| id | default | fix | what it finds |", "|---|---|---|---|"],
  other: ["| id | default | what it finds |", "|---|---|---|"],
};

/** Where an mcp rule's facts come from, said before its description (`static` needs nothing said). */
const INPUT_NOTE = { live: "(live) ", probe: "(probe) " };

/** One README row of `rule`. */
function readmeRow(rule) {
  const link = `[\`${rule.id}\`](docs/rules/${rule.id}.md)`;
  if (rule.domain === "capabilities")
    return `| ${link} | ${rule.defaultSeverity} | ${rule.fixable ? "✔" : ""} | ${rule.description} |`;
  return `| ${link} | ${rule.defaultSeverity} | ${INPUT_NOTE[rule.input] ?? ""}${rule.description} |`;
}

/** README.md with every `rule-table` block written from `rules`. */
export function readmeWithRuleTables(readme, rules) {
  return readme.replace(
    /(<!-- rule-table:([a-z-]+) -->\n)[\s\S]*?(<!-- \/rule-table -->)/g,
    (_all, open, domain, close) => {
      const rows = rules
        .filter((rule) => rule.domain === domain)
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map(readmeRow);
      if (rows.length === 0) throw new Error(`README.md: no rule of a domain named "${domain}"`);
      return `${open}${[...(README_HEADERS[domain] ?? README_HEADERS.other), ...rows].join("\n")}\n${close}`;
    },
  );
}

/** The first sentence of a docs page's "## Why" section, as one line. */
export function whyOf(page) {
  const section = /^## Why\n+([\s\S]*?)(?:\n\n|\n## |$)/m.exec(page);
  if (!section) return undefined;
  const text = section[1].replace(/\s*\n\s*/g, " ").trim();
  const sentence = /^.*?[.;:](?=\s|$)/.exec(text);
  return (sentence ? sentence[0] : text).replace(/[.;:]$/, "").replace(/\|/g, "\\|");
}

/**
 * docs/rules/README.md with each domain's table in step with `rules`. `sectionDomain(heading)` names
 * the domain of a `## ` section (or undefined); `pageOf(id)` reads a rule's docs page (for a new row).
 */
export function contractWithRuleRows(contract, rules, sectionDomain, pageOf) {
  const lines = contract.split("\n");
  const out = [];
  let domain;
  let listed = new Set();
  const rowPattern = /^\| \[`([a-z0-9-]+)`\]\(\1\.md\) \| ([a-z]+) \|(.*)$/;
  const flush = () => {
    if (domain === undefined) return;
    const missing = rules
      .filter((rule) => rule.domain === domain && !listed.has(rule.id))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    // New rows go right after the section's last row.
    let at = out.length;
    while (at > 0 && !out[at - 1].startsWith("|")) at--;
    const rows = missing.map((rule) => {
      const why = whyOf(pageOf(rule.id) ?? "");
      if (!why)
        throw new Error(
          `docs/rules/${rule.id}.md has no "## Why" section to justify its severity with`,
        );
      return `| [\`${rule.id}\`](${rule.id}.md) | ${rule.defaultSeverity} | — | ${why} |`;
    });
    out.splice(at, 0, ...rows);
  };
  for (const line of lines) {
    if (line.startsWith("## ")) {
      flush();
      domain = sectionDomain(line);
      listed = new Set();
    }
    const row = domain === undefined ? null : rowPattern.exec(line);
    if (row) {
      const rule = rules.find(
        (candidate) => candidate.id === row[1] && candidate.domain === domain,
      );
      // A shared pipeline step (parse) is listed with the domain that declares it first.
      if (!rule) continue;
      listed.add(rule.id);
      out.push(`| [\`${rule.id}\`](${rule.id}.md) | ${rule.defaultSeverity} |${row[3]}`);
      continue;
    }
    out.push(line);
  }
  flush();
  return out.join("\n");
}
