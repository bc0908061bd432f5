import { TARGETS, valuesOf, type Capability } from "../../model/types.js";
import type { AppConfig } from "../../load/app-config.js";
import type { RuleContext } from "../types.js";
import { work } from "../../work.js";

/** What a build-breaking finding in a capability means for the platforms this run resolves. */
export interface BuildImpact {
  /** The capability is active on none of them: it breaks no build checked here, so a warning. */
  demote: boolean;
  /** Appended to the message: which build it breaks, when not one checked here. */
  note: string;
}

/**
 * The host checks (and resolves) only the capabilities active on the build's target: a mistake in a
 * macOS-only capability breaks the macOS build, not a Linux one. With `--platform linux` such a
 * finding says which build it breaks and is a warning, not an unqualified error.
 */
/**
 * Whether a target's build checks the capability: tauri-build validates every capability file its
 * `platforms` allow, whether the app config loads it or not; an inline capability is checked when it
 * is resolved, so only where its config is in force.
 */
function checkedOn(capability: Capability, platform: string): boolean {
  const allowed =
    capability.platforms === undefined || valuesOf(capability.platforms).includes(platform);
  return (
    allowed &&
    (!capability.source.inline ||
      capability.configPlatforms === undefined ||
      capability.configPlatforms.some((target) => target === platform))
  );
}

/** The impact of a capability checked on a platform the run covers: one object, read only. */
const IN_FORCE: BuildImpact = Object.freeze({ demote: false, note: "" });

/**
 * The platforms a run covers are a shared input (`context.platforms`, the same for every file), so the
 * impact depends on the capability alone and a rule of one document may ask for it. The resolution
 * covers those platforms, or only the first when no capability, platform config or permission names
 * platforms (isPlatformIndependent), and then every capability is checked on every platform: the
 * answer is the same either way.
 */
export function buildImpactOf(
  context: Pick<RuleContext, "platforms">,
): (capability: Capability) => BuildImpact {
  const asked = context.platforms;
  // A rule's findings come capability by capability: the last answer is kept for the next finding.
  let last: Capability | undefined;
  let lastImpact: BuildImpact = IN_FORCE;
  return (capability) => {
    if (capability === last) return lastImpact;
    work.buildImpactsWorkedOut++;
    last = capability;
    const inactive = asked.length > 0 && !asked.some((platform) => checkedOn(capability, platform));
    if (!inactive) return (lastImpact = IN_FORCE);
    const platforms = (capability.platforms ? valuesOf(capability.platforms) : TARGETS).filter(
      (platform) => checkedOn(capability, platform),
    );
    return (lastImpact = {
      demote: true,
      note: platforms.length
        ? `; it breaks the ${platforms.join(" and ")} build (the capability is not active on ${asked.join(" or ")})`
        : "; it breaks no build (the capability is active on no platform)",
    });
  };
}

/**
 * For a pattern the host cannot compile (a window or webview glob, a remote URL): the host compiles
 * them only for the commands a capability resolves to (each allowed or denied command entry carries the
 * capability's patterns), so a capability that resolves to no command on any checked platform (no
 * permissions, or only scope-only ones) builds and runs: a warning that says so, since the first
 * command added breaks the build. Settled with host-oracle: `windows: ["main-**"]` with no permission
 * resolves; with `pb:allow-x` it fails with "failed to run glob"; `remote.urls: ["("]` likewise panics.
 *
 * What a capability resolves to depends on it alone (its entries, platforms and contexts), the catalog
 * and whether the app config loads it: it is resolved by itself, only when a pattern does not compile,
 * so a rule of one document may ask.
 */
export function patternImpactOf(
  context: Pick<RuleContext, "platforms" | "catalog" | "project">,
): (capability: Capability) => Promise<BuildImpact> {
  const impactOf = buildImpactOf(context);
  return async (capability) => {
    const impact = impactOf(capability);
    if (impact.demote || context.platforms.length === 0 || (await resolvesCommands(capability)))
      return impact;
    return {
      demote: true,
      note: "; the build passes only because the capability resolves to no command: the first command it grants or denies breaks it",
    };
  };

  async function resolvesCommands(capability: Capability): Promise<boolean> {
    if (!loadedByConfig(capability, context.project.config)) return false;
    const { resolveAll } = await import("../../engine/index.js");
    const { models } = resolveAll({
      capabilities: [capability],
      catalog: context.catalog,
      platforms: context.platforms,
    });
    return models.some(
      (model) =>
        model.capabilities.some((resolved) =>
          model.allowedCommandLists(resolved.index).some((list) => list.length > 0),
        ) || [...model.denied.values()].some((entries) => (entries?.length ?? 0) > 0),
    );
  }
}

/**
 * Whether the app config loads the capability on some target, as the loader selects the active
 * capabilities (load/project.ts `selectActive`): inline ones always; a file when no list is in force
 * on some target, or that target's list names its identifier. It depends on the capability's own
 * identifier and the config alone.
 */
function loadedByConfig(capability: Capability, config: AppConfig | undefined): boolean {
  if (capability.source.inline || !config || config.capabilityLists.length === 0) return true;
  return TARGETS.some((target) => {
    const list = config.capabilityLists.find(
      (candidate) => !candidate.platforms || candidate.platforms.includes(target),
    );
    return !list || list.refs.some((ref) => ref.identifier === capability.identifier);
  });
}
