import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dangerousGrants } from "../../src/capabilities/dangers/index.js";
import { accessMatrix } from "../../src/capabilities/engine/index.js";
import { buildReport, pluginOf } from "../../src/capabilities/html-report/model.js";
import { lint } from "../../src/capabilities/lint.js";
import { loadProject } from "../../src/capabilities/load/project.js";
import { knownWindowLabels, resolveProject } from "../../src/capabilities/queries/project-model.js";
import { FIXTURES } from "../helpers/run.js";

/**
 * Dangerous grants are computed once, as data (src/capabilities/dangers): the dangerous-permission
 * rule words them and the HTML report marks its cells from them. On every app of the real-world
 * corpus both must tell the same story: one finding per dangerous grant, at the grant's place, and a
 * marked cell for exactly the windows and plugins whose grants are dangerous.
 */
const CORPUS = path.join(FIXTURES, "real-world");
const PLATFORM = "linux";
const projects = readdirSync(CORPUS)
  .filter(
    (name) =>
      name !== "second-set" &&
      name !== "build-truth" &&
      statSync(path.join(CORPUS, name)).isDirectory(),
  )
  .sort();

async function load(project: string) {
  const plugins = path.join(CORPUS, project, "plugin-permissions");
  return loadProject({
    cwd: CORPUS,
    app: project,
    ...(existsSync(plugins) ? { plugins: [plugins] } : {}),
  });
}

describe("dangerous grants as data: the rule and the report agree on the real-world corpus", () => {
  it("covers apps with dangerous grants", async () => {
    let total = 0;
    for (const project of projects)
      total += (await dangerousGrants(resolveProject(await load(project), PLATFORM))).length;
    // The corpus holds real shell, file-system and http grants: an empty list would make the checks below vacuous.
    expect(total).toBeGreaterThanOrEqual(10);
  }, 120_000);

  for (const project of projects) {
    it(project, async () => {
      const loaded = await load(project);
      const model = resolveProject(loaded, PLATFORM);
      const result = await lint(loaded, { platforms: [PLATFORM] });
      const grants = await dangerousGrants(model);
      // The same data, not a recomputation: asking again for the same resolution returns the same list.
      expect(await dangerousGrants(model)).toBe(grants);

      const findings = result.diagnostics.filter((d) => d.ruleId === "dangerous-permission");
      const where = (file: string, at: readonly (string | number)[], danger: unknown) =>
        `${file} ${JSON.stringify(at)} ${String(danger)}`;
      expect(findings.map((f) => where(f.file, f.path, f.data?.danger)).sort()).toEqual(
        grants.map((g) => where(g.capability.source.file, g.at, g.danger.id)).sort(),
      );
      for (const grant of grants) {
        const finding = findings.find(
          (f) =>
            f.file === grant.capability.source.file &&
            f.data?.danger === grant.danger.id &&
            JSON.stringify(f.path) === JSON.stringify(grant.at),
        )!;
        expect(finding.message).toContain(`dangerous grant "${grant.grant.provenance.chain[0]}"`);
        // Remote pages make it an error; every window ("*") without them stays a warning, worded as such.
        expect(finding.severity).toBe(grant.exposure?.kind === "remote" ? "error" : "warning");
        if (grant.exposure?.kind === "every-window")
          expect(finding.message).toContain('every window ("*")');
      }

      const windows = knownWindowLabels(loaded);
      const report = await buildReport({
        project: loaded,
        groups: [{ platforms: [PLATFORM], model }],
        asked: [PLATFORM],
        lint: result,
        windows,
        origin: { kind: "local" },
        app: project,
        toolVersion: "9.9.9",
      });
      expect(report.counts.dangerousFindings).toBe(grants.length);
      // A cell is marked exactly when the window is granted, by the dangerous grant's capability, one of
      // its commands, or any command through the entry behind it (read off the engine's matrix, not the report).
      const matrix = accessMatrix(model, windows, { kind: "local" });
      const expected = new Set<string>();
      for (const row of matrix.rows) {
        for (const command of row.granted) {
          const { grantedBy } = matrix.cell(row.window, command);
          const dangerous = grants.some(
            (grant) =>
              grantedBy.some((entry) => entry.capabilityIndex === grant.capabilityIndex) &&
              (grant.commands.includes(command) ||
                grantedBy.some(
                  (entry) =>
                    entry.capabilityIndex === grant.capabilityIndex &&
                    entry.provenance.file === grant.grant.provenance.file &&
                    JSON.stringify(entry.provenance.path) ===
                      JSON.stringify(grant.grant.provenance.path),
                )) &&
              pluginOf(command) === pluginOf(grant.grant.command),
          );
          if (dangerous) expected.add(`${row.window} × ${pluginOf(command)}`);
        }
      }
      const marked = report.cells.flatMap((cells, r) =>
        cells.flatMap((cell, c) =>
          cell.dangerous ? [`${report.windows[r]} × ${report.columns[c]!.id}`] : [],
        ),
      );
      expect(marked.sort()).toEqual([...expected].sort());
      // Cells point only at dangerous-permission findings.
      for (const index of report.cells.flat().flatMap((cell) => cell.dangers ?? []))
        expect(report.findings[index]!.ruleId).toBe("dangerous-permission");
    });
  }
});
