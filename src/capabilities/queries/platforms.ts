import { TARGETS } from "../model/types.js";
import { nearest, quoteList } from "../../core/did-you-mean.js";
import type { ResolvedModel } from "../engine/index.js";
import type { Project } from "../load/project.js";
import { resolveProject } from "./project-model.js";

/** Thrown for a platform name caplint does not know; the CLI turns it into a usage error. */
export class PlatformNameError extends Error {}

/**
 * `--platform` values, case-insensitive (`macos`, `IOS`), comma-separated for several, in the
 * spelling capability files use. Capability files themselves stay case-sensitive, as the host reads them.
 */
export function parsePlatforms(value: string): string[] {
  const names = value
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw new PlatformNameError(`--platform: expected one of ${quoteList(TARGETS)}`);
  return [...new Set(names.map(canonicalPlatform))];
}

export function canonicalPlatform(name: string): string {
  const found = TARGETS.find((target) => target.toLowerCase() === name.toLowerCase());
  if (found) return found;
  const close = nearest(name, TARGETS, 2);
  throw new PlatformNameError(
    `--platform ${name}: unknown platform, expected ${quoteList(TARGETS)}${close.length ? `; did you mean ${quoteList(close)}?` : ""}`,
  );
}

/** Platforms that resolve to the same access, with that resolution. */
export interface PlatformGroup {
  platforms: string[];
  model: ResolvedModel;
}

/**
 * The project resolved for each platform asked (default: all five), with platforms whose answers
 * are identical grouped, so that a query prints a difference only where one exists.
 */
export function resolvePlatformGroups(
  project: Project,
  platforms: readonly string[] = TARGETS,
): PlatformGroup[] {
  if (isPlatformIndependent(project))
    return [{ platforms: [...platforms], model: resolveProject(project, platforms[0]!) }];
  const groups = new Map<string, PlatformGroup>();
  for (const platform of platforms) {
    const model = resolveProject(project, platform);
    const key = fingerprint(model);
    const group = groups.get(key);
    if (group) group.platforms.push(platform);
    else groups.set(key, { platforms: [platform], model });
  }
  return [...groups.values()];
}

/** True when no capability, platform config or permission names platforms: then every platform resolves alike. */
export function isPlatformIndependent(project: Project): boolean {
  if (
    project.capabilities.some(
      (capability) =>
        capability.platforms !== undefined || capability.configPlatforms !== undefined,
    )
  )
    return false;
  for (const key of project.catalog.keys())
    if (project.catalog.mayLimitPlatforms(key)) return false;
  return true;
}

/** What a resolution grants and denies, down to provenance: equal fingerprints answer every query alike. */
function fingerprint(model: ResolvedModel): string {
  const parts: string[] = [];
  for (const [kind, map] of [
    ["+", model.allowed],
    ["-", model.denied],
  ] as const) {
    for (const [command, entries] of map) {
      for (const entry of entries) {
        const source = model.capabilities[entry.capabilityIndex]!.capability.source;
        parts.push(
          `${kind}${command}\u0000${source.absolutePath}\u0000${JSON.stringify(source.path)}\u0000${entry.provenance.chain.join(">")}\u0000${entry.contextIndex}`,
        );
      }
    }
  }
  for (const [key, scope] of model.globalScope) {
    for (const contribution of scope.contributions)
      parts.push(
        `g${key}\u0000${contribution.provenance.chain.join(">")}\u0000${contribution.provenance.file}\u0000${JSON.stringify(contribution.provenance.path)}`,
      );
  }
  return parts.sort().join("\n");
}

/** "all platforms", "macOS only", "linux, windows": how a subset of the asked platforms reads. */
export function describePlatforms(subset: readonly string[], asked: readonly string[]): string {
  if (subset.length === asked.length)
    return asked.length === TARGETS.length ? "all platforms" : subset.join(", ");
  return subset.length === 1 ? `${subset[0]} only` : `${subset.join(", ")} only`;
}

/** Items that several platform groups produce, merged by identity with the platforms each holds on. */
export class PlatformMerge<T> {
  private readonly items = new Map<string, { item: T; platforms: string[] }>();

  add(key: string, item: T, platforms: readonly string[]): void {
    const known = this.items.get(key);
    if (known) known.platforms.push(...platforms.filter((p) => !known.platforms.includes(p)));
    else this.items.set(key, { item, platforms: [...platforms] });
  }

  values(): Array<{ item: T; platforms: string[] }> {
    return [...this.items.values()];
  }
}

/** The identity of an allow or deny entry across platform resolutions (capability entry, chain, context). */
export function entryKey(entry: {
  command: string;
  provenance: { file: string; path: readonly (string | number)[]; chain: readonly string[] };
  context: { kind: string; url?: string };
}): string {
  const context = entry.context.kind === "local" ? "local" : entry.context.url;
  return `${entry.command}\u0000${entry.provenance.file}\u0000${JSON.stringify(entry.provenance.path)}\u0000${entry.provenance.chain.join(">")}\u0000${context}`;
}

/** `  [macOS only]` after a line that does not hold on every asked platform; nothing when it does. */
export function platformNote(platforms: readonly string[], asked: readonly string[]): string {
  return platforms.length >= asked.length
    ? ""
    : `  [${describePlatforms(
        asked.filter((p) => platforms.includes(p)),
        asked,
      )}]`;
}
