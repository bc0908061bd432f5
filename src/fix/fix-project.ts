import { lint, type LintOptions, type LintResult } from "../lint.js";
import { loadProject, type LoadOptions, type Project } from "../load/project.js";
import { applyFixes } from "./apply-fixes.js";

/** ESLint's bound: fixes that keep producing fixes are cut off here. */
export const MAX_FIX_PASSES = 10;

export interface FixOutcome {
  /** Files whose text changed: absolute path → original and fixed text. */
  changes: Map<string, { file: string; original: string; fixed: string }>;
  /** The project and findings after the last pass. */
  project: Project;
  result: LintResult;
  passes: number;
}

/**
 * Applies safe fixes in memory: lint, apply non-overlapping fixes, re-load the fixed texts and lint
 * again, until nothing is left to fix or the pass limit is reached. Nothing is written here.
 */
export async function fixProject(loadOptions: LoadOptions, lintOptions: LintOptions = {}): Promise<FixOutcome> {
  // Texts given in place of files (standard input) stay in place on every pass.
  const overrides = new Map<string, string>(loadOptions.sourceOverrides ?? []);
  const originals = new Map<string, { file: string; text: string }>();
  let project = await loadProject(loadOptions);
  let result = await lint(project, lintOptions);
  let passes = 0;
  while (passes < MAX_FIX_PASSES) {
    const byFile = new Map<string, typeof result.diagnostics>();
    for (const d of result.diagnostics) if (d.fix) byFile.set(d.absolutePath, [...(byFile.get(d.absolutePath) ?? []), d]);
    if (byFile.size === 0) break;
    let applied = 0;
    for (const [absolutePath, diagnostics] of byFile) {
      const document = project.documents.find((d) => d.absolutePath === absolutePath);
      if (!document) continue;
      if (!originals.has(absolutePath)) originals.set(absolutePath, { file: document.file, text: document.text });
      const outcome = applyFixes(document.text, diagnostics.map((d) => d.fix!));
      if (outcome.text !== document.text) {
        overrides.set(absolutePath, outcome.text);
        applied += outcome.applied;
      }
    }
    passes++;
    if (applied === 0) break;
    project = await loadProject({ ...loadOptions, sourceOverrides: overrides });
    result = await lint(project, lintOptions);
  }
  const changes: FixOutcome["changes"] = new Map();
  for (const [absolutePath, original] of originals) {
    const fixed = overrides.get(absolutePath);
    if (fixed !== undefined && fixed !== original.text) changes.set(absolutePath, { file: original.file, original: original.text, fixed });
  }
  return { changes, project, result, passes };
}
