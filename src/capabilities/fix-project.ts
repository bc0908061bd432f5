import { runFixPasses, type FixOutcome } from "../core/fix/fix-passes.js";
import { lint, type LintOptions, type LintResult } from "./lint.js";
import { loadProject, type LoadOptions, type Project } from "./load/project.js";

/** The capability input through the fix passes: load (with fixed texts), lint, repeat. */
export function fixProject(
  loadOptions: LoadOptions,
  lintOptions: LintOptions = {},
): Promise<FixOutcome<Project, LintResult>> {
  return runFixPasses<Project, LintResult>({
    async check(overrides) {
      // Texts given in place of files (standard input) stay in place on every pass, under the fixed ones.
      const given = loadOptions.sourceOverrides;
      const texts = given?.size ? new Map([...given, ...overrides]) : overrides;
      const project = await loadProject(
        texts.size ? { ...loadOptions, sourceOverrides: texts } : loadOptions,
      );
      return { project, result: await lint(project, lintOptions) };
    },
    source: (project, absolutePath) =>
      project.documents.find((d) => d.absolutePath === absolutePath),
  });
}
