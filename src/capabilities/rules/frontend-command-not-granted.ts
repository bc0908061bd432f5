import { loadVersionHistory } from "../catalog/versions.js";
import {
  addPermissionHint,
  callSpan,
  callText,
  judgedFrontend,
  platformsText,
  pluginMissingOn,
  refusalReason,
  windowsText,
} from "./support/frontend.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "frontend-command-not-granted",
  description:
    "Report calls in the app's frontend that the windows loading them will be refused at run time (no capability grants the command).",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    notGranted:
      '{{call}} invokes "{{command}}", which {{windows}} cannot call{{platforms}}: {{reason}}',
    notGrantedAnyWindow:
      '{{call}} invokes "{{command}}", which no window can call{{platforms}}: no capability grants it',
  },
  async check(context) {
    const access = await judgedFrontend(context);
    if (!access) return;
    const history = await loadVersionHistory();
    for (const judgement of access.judgements) {
      if (judgement.refusals.length === 0 || !judgement.permission) continue;
      const call = judgement.call;
      // Where the build lacks the plugin, the call fails with "plugin not found": frontend-calls-unregistered-plugin says so, not this rule.
      const missing = new Set(
        pluginMissingOn(context.project.build, judgement, access.targets, (plugin) =>
          history.has(plugin),
        ),
      );
      // One finding per call and reason: the windows refused the same way are listed together.
      const byReason = new Map<string, { windows: string[]; platforms: Set<string> }>();
      for (const refusal of judgement.refusals) {
        // A deny of what markup makes the runtime call (the drag region's double-click maximize) is how an app turns it off: meant, not a mistake.
        if (refusal.verdict === "denied" && call.trigger !== undefined) continue;
        const platforms = refusal.platforms.filter((platform) => !missing.has(platform));
        if (platforms.length === 0) continue;
        const reason = refusalReason(refusal.verdict);
        const group = byReason.get(reason) ?? { windows: [], platforms: new Set() };
        group.windows.push(refusal.window);
        for (const platform of platforms) group.platforms.add(platform);
        byReason.set(reason, group);
      }
      for (const [reason, group] of byReason) {
        const platforms = platformsText([...group.platforms], access.targets);
        const data = {
          call: callText(call),
          command: judgement.command,
          windows: windowsText(group.windows),
          platforms,
          reason,
        };
        const capability = judgement.capability;
        const document = capability ? context.document(capability.source) : undefined;
        let hint = reason.startsWith("a capability denies")
          ? `remove the deny of "${judgement.command}", or do not call it`
          : addPermissionHint(judgement, judgement.permission, document, capability);
        if (
          !judgement.byPage &&
          group.windows.some(
            (window) => window !== "*" && !judgement.ownPageWindows.includes(window),
          )
        )
          hint +=
            " (judged for every window that loads local pages: which window loads this file is not known)";
        context.report({
          at: { absolutePath: call.file },
          path: [],
          span: callSpan(call),
          messageId: group.windows[0] === "*" ? "notGrantedAnyWindow" : "notGranted",
          data,
          hint,
        });
      }
    }
  },
});
