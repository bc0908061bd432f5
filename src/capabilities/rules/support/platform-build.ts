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
  const allowed = capability.platforms === undefined || valuesOf(capability.platforms).includes(platform);
  return allowed && (!capability.source.inline || capability.configPlatforms === undefined || capability.configPlatforms.some((target) => target === platform));
}

export async function buildImpactOf(context: RuleContext): Promise<(capability: Capability) => BuildImpact> {
  const models = await context.resolutions();
  const asked = models.map((model) => model.platform);
  return (capability) => {
    const inactive = models.length > 0 && !asked.some((platform) => checkedOn(capability, platform));
    if (!inactive) return { demote: false, note: "" };
    const platforms = (capability.platforms ? valuesOf(capability.platforms) : TARGETS).filter((platform) => checkedOn(capability, platform));
    return {
      demote: true,
      note: platforms.length
        ? `; it breaks the ${platforms.join(" and ")} build (the capability is not active on ${asked.join(" or ")})`
        : "; it breaks no build (the capability is active on no platform)",
    };
  };
}
