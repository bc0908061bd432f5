import type { PermissionListing } from "../queries/permissions.js";
import { NO_PAINT, textLines, type Paint } from "../../core/terminal-text.js";
import { markdownText } from "../../core/markdown-text.js";

export function renderPermissionsJson(listing: readonly PermissionListing[]): string {
  return JSON.stringify(listing, null, 2) + "\n";
}

/** With colour: identifiers bold, descriptions dim, denies red. */
export function renderPermissionsText(
  listing: readonly PermissionListing[],
  paint: Paint = NO_PAINT,
): string {
  const out: string[] = [];
  for (const p of listing) {
    out.push(
      `${paint.bold(p.identifier)}  (${p.kind}${p.platforms ? `, ${p.platforms.join("/")} only` : ""})`,
    );
    const description = markdownText(p.description);
    if (description)
      out.push(
        `  ${paint.dim(description.length > 160 ? description.slice(0, 159) + "…" : description)}`,
      );
    if (p.members) out.push(`  includes: ${p.members.join(", ") || "nothing"}`);
    if (p.allows.length) out.push(`  allows: ${p.allows.join(", ")}`);
    if (p.denies.length) out.push(`  ${paint.error("denies")}: ${p.denies.join(", ")}`);
    if (p.scopeOnly) out.push("  scope only: adds to the plugin's global scope");
    out.push("");
  }
  return out.length ? textLines(out.slice(0, -1)) + "\n" : "no permissions match\n";
}
