import broadRemote from "./broad-remote.js";
import duplicateCapability from "./duplicate-capability.js";
import duplicatePermission from "./duplicate-permission.js";
import emptyPlatforms from "./empty-platforms.js";
import ignoredFile from "./ignored-file.js";
import insecureRemote from "./insecure-remote.js";
import invalidIdentifier from "./invalid-identifier.js";
import invalidPlatform from "./invalid-platform.js";
import legacyIdentifier from "./legacy-identifier.js";
import manifestMismatch from "./manifest-mismatch.js";
import noTarget from "./no-target.js";
import parse from "./parse.js";
import pluginNotInBuild from "./plugin-not-in-build.js";
import schema from "./schema.js";
import scopeConflict from "./scope-conflict.js";
import unknownField from "./unknown-field.js";
import unknownPermission from "./unknown-permission.js";
import unknownPlugin from "./unknown-plugin.js";
import unmatchedWindow from "./unmatched-window.js";
import unusedSuppression from "./unused-suppression.js";
import allowDenyConflict from "./allow-deny-conflict.js";
import dangerousPermission from "./dangerous-permission.js";
import deadScope from "./dead-scope.js";
import defaultWithoutSet from "./default-without-set.js";
import denyAppliesGlobally from "./deny-applies-globally.js";
import invalidLabelPattern from "./invalid-label-pattern.js";
import invalidRemoteUrl from "./invalid-remote-url.js";
import redundantPermission from "./redundant-permission.js";
import setCycle from "./set-cycle.js";
import unknownSetMember from "./unknown-set-member.js";
import unsafePattern from "./unsafe-pattern.js";
import type { PipelineStep, Rule } from "./types.js";

const LISTED = [
  broadRemote,
  duplicateCapability,
  duplicatePermission,
  emptyPlatforms,
  ignoredFile,
  insecureRemote,
  invalidIdentifier,
  invalidPlatform,
  legacyIdentifier,
  manifestMismatch,
  noTarget,
  parse,
  pluginNotInBuild,
  schema,
  scopeConflict,
  unknownField,
  unknownPermission,
  unknownPlugin,
  unmatchedWindow,
  unusedSuppression,
  allowDenyConflict,
  dangerousPermission,
  deadScope,
  defaultWithoutSet,
  denyAppliesGlobally,
  invalidLabelPattern,
  invalidRemoteUrl,
  redundantPermission,
  setCycle,
  unknownSetMember,
  unsafePattern,
] as const;

/** The id of a capability rule or pipeline step, derived from the list (a typo in a literal id does not compile). */
export type CapabilityRuleId = (typeof LISTED)[number]["id"];

/** The capability rules and pipeline steps, sorted by id; src/registry.ts adds them to the other domains' rules. */
export const CAPABILITY_RULES: ReadonlyArray<(Rule | PipelineStep) & { id: CapabilityRuleId }> = [...LISTED].sort((a, b) => (a.id < b.id ? -1 : 1));

export const CAPABILITY_RULES_BY_ID: ReadonlyMap<string, (Rule | PipelineStep) & { id: CapabilityRuleId }> = new Map(
  CAPABILITY_RULES.map((rule) => [rule.id, rule]),
);
