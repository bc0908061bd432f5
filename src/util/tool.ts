import { readFileSync } from "node:fs";

/** Facts about caplint itself, shared by the CLI, the reporters and the library API. */

let version: string | undefined;
export function toolVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  return version;
}

export const HOMEPAGE = "https://github.com/caplint/caplint";

/** Rule docs at the released version, so links never drift (markdownlint's habit). */
export function docsUrl(ruleId: string): string {
  return `${HOMEPAGE}/blob/v${toolVersion()}/docs/rules/${ruleId}.md`;
}

/** The platform this process runs on, spelled as capability `platforms` spell it. */
export function runningPlatform(): string {
  switch (process.platform) {
    case "darwin":
      return "macOS";
    case "win32":
      return "windows";
    case "android":
      return "android";
    default:
      return "linux";
  }
}
