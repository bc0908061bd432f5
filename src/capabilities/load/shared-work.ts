/**
 * Work the loader shares between apps with the same inputs (committed manifests, lock files), counted
 * for tests that check the sharing by counting, never by timing: the counts grow with the distinct
 * inputs, not with the apps. Plain increments.
 */
export const sharedLoadWork = {
  /** Committed `acl-manifests.json` texts parsed and shape-checked. */
  manifestsParsed: 0,
  /** Committed manifests compared with the release catalog (per text and app facts). */
  manifestsCompared: 0,
  /** `Cargo.lock` texts read into packages. */
  lockFilesParsed: 0,
};
