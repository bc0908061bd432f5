import type { ResolvedModel } from "../engine/index.js";
import type { Project } from "../load/project.js";

/** A permission or set an answer goes through that the committed manifest defines differently from the catalog. */
export interface ManifestUnionNote {
  identifier: string;
  file: string;
  difference: string;
}

/**
 * The identifiers an answer goes through whose committed manifest differs from the built-in catalog in a
 * way no release explains away: the loader answered with the union of both, which the build does not do.
 */
export function manifestUnionNotes(
  differences: Project["manifestDifferences"],
  chains: () => Iterable<readonly string[]>,
): ManifestUnionNote[] {
  // Walking the chains makes every entry of a lazily resolved model: only worth it when a manifest differs.
  if (!differences.length) return [];
  const used = new Set<string>();
  for (const chain of chains()) for (const identifier of chain) used.add(identifier);
  const notes = new Map<string, ManifestUnionNote>();
  for (const difference of differences) {
    const identifier = `${difference.key}:${difference.name}`;
    if (difference.notInRelease || notes.has(identifier) || !used.has(identifier)) continue;
    notes.set(identifier, { identifier, file: difference.file, difference: difference.message });
  }
  return [...notes.values()];
}

/**
 * The identifier chains behind a resolved model: every allowed entry (of the capabilities named, when
 * `capabilities` is given), every deny (a deny holds for every window) and every global scope contribution.
 */
export function* modelChains(
  model: ResolvedModel,
  capabilities?: ReadonlySet<string>,
): Generator<readonly string[]> {
  for (const entries of model.allowed.values())
    for (const entry of entries)
      if (!capabilities || capabilities.has(entry.provenance.capability))
        yield entry.provenance.chain;
  for (const entries of model.denied.values())
    for (const entry of entries) yield entry.provenance.chain;
  for (const scope of model.globalScope.values())
    for (const contribution of scope.contributions) yield contribution.provenance.chain;
}
