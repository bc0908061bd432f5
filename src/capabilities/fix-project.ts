import { runFixPasses, type FixOutcome } from "../core/fix/fix-passes.js";
import { lint, type LintOptions, type LintResult } from "./lint.js";
import { loadProject, type LoadOptions, type Project } from "./load/project.js";

/** The capability input through the fix passes: load (with fixed texts), lint, repeat. */
export function fixProject(loadOptions: LoadOptions, lintOptions: LintOptions = {}): Promise<FixOutcome<Project, LintResult>> {
  return runFixPasses<Project, LintResult>({
    async check(overrides) {
      const project = await loadProject(overrides.size ? { ...loadOptions, sourceOverrides: overrides } : loadOptions);
      return { project, result: await lint(project, lintOptions) };
    },
    source: (project, absolutePath) => project.documents.find((d) => d.absolutePath === absolutePath),
  });
}
