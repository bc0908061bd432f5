/**
 * Every rule of the domain, one line each: a new rule is its file and its line here (docs/architecture.md).
 * An explicit list, not a glob, so that the bundle and the types see every rule.
 */
export { default as allowDenyConflict } from "./allow-deny-conflict.js";
export { default as broadRemote } from "./broad-remote.js";
export { default as dangerousPermission } from "./dangerous-permission.js";
export { default as deadScope } from "./dead-scope.js";
export { default as defaultWithoutSet } from "./default-without-set.js";
export { default as denyAppliesGlobally } from "./deny-applies-globally.js";
export { default as duplicateCapability } from "./duplicate-capability.js";
export { default as duplicatePermission } from "./duplicate-permission.js";
export { default as emptyGrant } from "./empty-grant.js";
export { default as emptyPlatforms } from "./empty-platforms.js";
export { default as frontendCallsUnregisteredPlugin } from "./frontend-calls-unregistered-plugin.js";
export { default as frontendCommandNotGranted } from "./frontend-command-not-granted.js";
export { default as frontendVersionSkew } from "./frontend-version-skew.js";
export { default as ignoredFile } from "./ignored-file.js";
export { default as insecureRemote } from "./insecure-remote.js";
export { default as invalidIdentifier } from "./invalid-identifier.js";
export { default as invalidLabelPattern } from "./invalid-label-pattern.js";
export { default as invalidPlatform } from "./invalid-platform.js";
export { default as invalidRemoteUrl } from "./invalid-remote-url.js";
export { default as legacyIdentifier } from "./legacy-identifier.js";
export { default as manifestMismatch } from "./manifest-mismatch.js";
export { default as noTarget } from "./no-target.js";
export { default as parse } from "./parse.js";
export { default as pluginNotInBuild } from "./plugin-not-in-build.js";
export { default as redundantPermission } from "./redundant-permission.js";
export { default as remoteAppCommands } from "./remote-app-commands.js";
export { default as schema } from "./schema.js";
export { default as scopeConflict } from "./scope-conflict.js";
export { default as setCycle } from "./set-cycle.js";
export { default as unknownField } from "./unknown-field.js";
export { default as unknownPermission } from "./unknown-permission.js";
export { default as unknownPlugin } from "./unknown-plugin.js";
export { default as unknownSetMember } from "./unknown-set-member.js";
export { default as unmatchedWindow } from "./unmatched-window.js";
export { default as unsafePattern } from "./unsafe-pattern.js";
export { default as unusedDangerousPermission } from "./unused-dangerous-permission.js";
export { default as unusedPermission } from "./unused-permission.js";
export { default as unusedSuppression } from "./unused-suppression.js";
