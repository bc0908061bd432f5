import type { Diagnostic } from "../diagnostics.js";
import { applyFixes } from "./apply-fixes.js";

/** ESLint's bound: fixes that keep producing fixes are cut off here. */
export const MAX_FIX_PASSES = 10;

/** Files whose text changed: absolute path → original and fixed text. */
export type FileChanges = Map<string, { file: string; original: string; fixed: string }>;

export interface FixOutcome<P, R> {
  changes: FileChanges;
  /** The input and findings after the last pass. */
  project: P;
  result: R;
  passes: number;
}

export interface FixPassHooks<P, R> {
  /** Loads the input with some files' texts replaced (absolute path → text) and lints it. */
  check(overrides: ReadonlyMap<string, string>): Promise<{ project: P; result: R }>;
  /** The text of a file of the loaded input, or undefined when it is not a fixable document. */
  source(project: P, absolutePath: string): { file: string; text: string } | undefined;
}

/**
 * Applies safe fixes in memory, for any domain: lint, apply non-overlapping fixes, re-load the fixed
 * texts and lint again, until nothing is left to fix or the pass limit is reached (ESLint's
 * `verifyAndFix`). Nothing is written here.
 */
export async function runFixPasses<P, R extends { diagnostics: readonly Diagnostic[] }>(
  hooks: FixPassHooks<P, R>,
): Promise<FixOutcome<P, R>> {
  const overrides = new Map<string, string>();
  const originals = new Map<string, { file: string; text: string }>();
  let { project, result } = await hooks.check(new Map());
  let passes = 0;
  while (passes < MAX_FIX_PASSES) {
    const byFile = new Map<string, Diagnostic[]>();
    for (const d of result.diagnostics)
      if (d.fix) byFile.set(d.absolutePath, [...(byFile.get(d.absolutePath) ?? []), d]);
    if (byFile.size === 0) break;
    let applied = 0;
    for (const [absolutePath, diagnostics] of byFile) {
      const source = hooks.source(project, absolutePath);
      if (!source) continue;
      if (!originals.has(absolutePath)) originals.set(absolutePath, source);
      const outcome = applyFixes(
        source.text,
        diagnostics.map((d) => d.fix!),
      );
      if (outcome.text !== source.text) {
        overrides.set(absolutePath, outcome.text);
        applied += outcome.applied;
      }
    }
    passes++;
    if (applied === 0) break;
    ({ project, result } = await hooks.check(new Map(overrides)));
  }
  const changes: FileChanges = new Map();
  for (const [absolutePath, original] of originals) {
    const fixed = overrides.get(absolutePath);
    if (fixed !== undefined && fixed !== original.text)
      changes.set(absolutePath, { file: original.file, original: original.text, fixed });
  }
  return { changes, project, result, passes };
}
