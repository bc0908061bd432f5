import { dangerKeys, dangerousGrants, dangerousGrantsExcept, type DangerousGrant } from "../dangers/index.js";
import { describeTargets } from "./support/engine-helpers.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "dangerous-permission",
  description: "Report high-risk grants (shell, upload, broad file-system write or read, any-host HTTP, opening any URL); an error when remote pages get them.",
  category: "security",
  security: { severity: 8.8, cwe: [250, 269] },
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    dangerousGrant: 'dangerous grant "{{permission}}" ({{commandList}}){{scopedBy}}: a script in {{where}} could {{impact}}',
  },
  async check(context) {
    // In a later platform model, a danger whose commands and global scopes an earlier model resolves
    // alike is skipped, and so is a capability's danger judged on the same grants there (`dangers`).
    const resolution = await context.resolution();
    for (const { model, earlier, settled } of resolution.modelsToJudge()) {
      const founds =
        earlier.length === 0
          ? await dangerousGrants(model)
          : await dangerousGrantsExcept(model, (danger) => settled(danger.commands, dangerKeys(danger)), earlier);
      for (const found of founds) {
        const { danger, grant, scopeEntry, reach } = found;
        // A few names, so the message stays one readable line (fs:write-all alone grants ten commands).
        const listed = found.commands.length > 3 ? `${found.commands.slice(0, 2).join(", ")} and ${found.commands.length - 2} more` : found.commands.join(", ");
        const said = found.commandLine
          ? "run any command line on the user's machine"
          : typeof danger.impact === "string"
            ? danger.impact
            : danger.impact(new Set(found.commands));
        const impact = danger.broad && danger.id !== "shell" ? `${said} ${reach}` : said + (reach ? ` (${reach})` : "");
        // Name (and point at) the entry that brings the broad scope: `fs:scope`, not the `fs:default` beside it.
        const scopedBy = scopeEntry ? ` with the scope of "${scopeEntry.chain[0]}"` : "";
        context.report({
          at: found.capability.source,
          path: found.at,
          // Remote pages are the exposure; `windows: ["*"]` reaches only the app's own local pages, so it stays a warning.
          escalate: found.exposure?.kind === "remote",
          // Which danger, so a program can tie the finding back to its grant (several can point at one `fs:scope` entry).
          messageId: "dangerousGrant",
          data: { danger: danger.id, permission: grant.provenance.chain[0]!, commandList: listed, scopedBy, where: exposureText(found), impact },
          hint: hintFor(found.exposure),
        });
      }
    }
  },
});

function hintFor(exposure: DangerousGrant["exposure"]): string {
  if (exposure?.kind === "remote") return "move this permission to a capability for trusted local windows only, with a narrow scope";
  if (exposure?.kind === "every-window") return 'grant it to the windows that use it by name instead of "*", with a narrow scope';
  return "narrow the scope to the folders, hosts or programs the app needs, and grant it only to the windows that use it";
}

function exposureText({ exposure, capability }: DangerousGrant): string {
  if (exposure?.kind === "remote") return `remote pages (${exposure.urls.map((url) => `"${url}"`).join(", ")})`;
  if (exposure?.kind === "every-window") return `every window ("*")`;
  return describeTargets(capability);
}
