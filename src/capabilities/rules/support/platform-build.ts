import { TARGETS, valuesOf, type Capability } from "../../model/types.js";
import type { RuleContext } from "../types.js";

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

export async function buildImpactOf(
  context: RuleContext,
): Promise<(capability: Capability) => BuildImpact> {
  const models = await context.resolutions();
  const asked = models.map((model) => model.platform);
  return (capability) => {
    const inactive =
      models.length > 0 && !asked.some((platform) => checkedOn(capability, platform));
    if (!inactive) return { demote: false, note: "" };
    const platforms = (capability.platforms ? valuesOf(capability.platforms) : TARGETS).filter(
      (platform) => checkedOn(capability, platform),
    );
    return {
      demote: true,
      note: platforms.length
        ? `; it breaks the ${platforms.join(" and ")} build (the capability is not active on ${asked.join(" or ")})`
        : "; it breaks no build (the capability is active on no platform)",
    };
  };
}

/**
 * For a pattern the host cannot compile (a window or webview glob, a remote URL): the host compiles
 * them only for the commands a capability resolves to (each allowed or denied command entry carries the
 * capability's patterns), so a capability that resolves to no command on any checked platform (no
 * permissions, or only scope-only ones) builds and runs: a warning that says so, since the first
 * command added breaks the build. Settled with host-oracle: `windows: ["main-**"]` with no permission
 * resolves; with `pb:allow-x` it fails with "failed to run glob"; `remote.urls: ["("]` likewise panics.
 */
export async function patternImpactOf(
  context: RuleContext,
): Promise<(capability: Capability) => BuildImpact> {
  const impactOf = await buildImpactOf(context);
  const models = await context.resolutions();
  let resolving: Set<Capability> | undefined;
  const resolvesCommands = (capability: Capability): boolean => {
    if (!resolving) {
      resolving = new Set();
      for (const model of models) {
        for (const resolved of model.capabilities)
          if (model.allowedCommandLists(resolved.index).some((list) => list.length > 0))
            resolving.add(resolved.capability);
        for (const entries of model.denied.values())
          for (const entry of entries)
            resolving.add(model.capabilities[entry.capabilityIndex]!.capability);
      }
    }
    return resolving.has(capability);
  };
  return (capability) => {
    const impact = impactOf(capability);
    if (impact.demote || models.length === 0 || resolvesCommands(capability)) return impact;
    return {
      demote: true,
      note: "; the build passes only because the capability resolves to no command: the first command it grants or denies breaks it",
    };
  };
}
