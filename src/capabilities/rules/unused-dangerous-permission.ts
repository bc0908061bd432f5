import { loadVersionHistory } from "../catalog/versions.js";
import { dangerousGrants } from "../dangers/index.js";
import { judgedFrontend, unusedEntries } from "./support/frontend.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "unused-dangerous-permission",
  description:
    "Report dangerous grants (shell, broad file-system write, any-path opener, HTTP to any hostname) that no reachable call of the app's frontend uses: an exposure nothing needs.",
  category: "security",
  security: { severity: 7.5, cwe: [250, 269] },
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    unused:
      'dangerous grant "{{permission}}" ({{commandList}}) is used by no reachable call of the frontend: it exposes {{capability}} for nothing',
  },
  async check(context) {
    const access = await judgedFrontend(context);
    if (!access) return;
    const history = await loadVersionHistory();
    const unused = new Set(
      unusedEntries(access, (plugin) => history.has(plugin)).map(({ entry }) => entry),
    );
    if (unused.size === 0) return;
    const resolution = await context.resolution();
    const reported = new Set<object>();
    for (const model of resolution.models) {
      for (const found of await dangerousGrants(model)) {
        const entry = found.capability.permissions.find(
          (candidate) =>
            JSON.stringify(candidate.path) === JSON.stringify(found.grant.provenance.path),
        );
        if (!entry || !unused.has(entry) || reported.has(entry)) continue;
        reported.add(entry);
        const listed =
          found.commands.length > 3
            ? `${found.commands.slice(0, 2).join(", ")} and ${found.commands.length - 2} more`
            : found.commands.join(", ");
        context.report({
          at: found.capability.source,
          path: entry.path,
          messageId: "unused",
          data: {
            permission: entry.identifier,
            commandList: listed,
            capability: `capability "${found.capability.identifier}"`,
          },
          hint: `remove "${entry.identifier}"; if a build you did not scan needs it, grant the one command with a narrow scope`,
        });
      }
    }
  },
});
