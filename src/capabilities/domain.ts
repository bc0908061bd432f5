import type { Domain } from "../core/lint/domain.js";
import { CAPABILITY_CONFIG } from "./config-section.js";
import { CAPABILITY_WORDING } from "./load/wording.js";
import { CAPABILITY_RULES } from "./rules/index.js";
import { CAPABILITIES_DOMAIN } from "./rules/types.js";

/** Capability files (the host's ACL): `caplint check` and the access queries. */
export const CAPABILITIES: Domain<(typeof CAPABILITY_RULES)[number]> = {
  name: CAPABILITIES_DOMAIN,
  lintCommand: "check",
  rules: CAPABILITY_RULES,
  wording: CAPABILITY_WORDING,
  config: CAPABILITY_CONFIG,
};
