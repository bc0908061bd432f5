import { packageManifest } from "./package-files.js";

/** Facts about caplint itself, shared by the CLI, the reporters and the library API. */

export function toolVersion(): string {
  return packageManifest().version;
}

export const HOMEPAGE = "https://github.com/caplint/caplint";

/** Rule docs at the released version, so links never drift (markdownlint's habit). */
export function docsUrl(ruleId: string): string {
  return `${HOMEPAGE}/blob/v${toolVersion()}/docs/rules/${ruleId}.md`;
}
