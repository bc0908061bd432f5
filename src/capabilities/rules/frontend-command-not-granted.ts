import { addPermissionHint, callSpan, callText, judgedFrontend, platformsText, windowsText } from "./support/frontend.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "frontend-command-not-granted",
  description: "Report calls in the app's frontend that the windows loading them will be refused at run time (no capability grants the command).",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    notGranted: '{{call}} invokes "{{command}}", which {{windows}} cannot call{{platforms}}: {{reason}}',
    notGrantedAnyWindow: '{{call}} invokes "{{command}}", which no window can call{{platforms}}: no capability grants it',
  },
  async check(context) {
    const access = await judgedFrontend(context);
    if (!access) return;
    for (const judgement of access.judgements) {
      if (judgement.refusals.length === 0 || !judgement.permission) continue;
      const call = judgement.call;
      // One finding per call and reason: the windows refused the same way are listed together.
      const byReason = new Map<string, { windows: string[]; platforms: Set<string> }>();
      for (const refusal of judgement.refusals) {
        const reason =
          refusal.verdict === "denied"
            ? "a capability denies it (a deny applies to every window)"
            : refusal.verdict === "not-allowed-here"
              ? "it is granted to other windows only"
              : "no capability grants it";
        const group = byReason.get(reason) ?? { windows: [], platforms: new Set() };
        group.windows.push(refusal.window);
        for (const platform of refusal.platforms) group.platforms.add(platform);
        byReason.set(reason, group);
      }
      for (const [reason, group] of byReason) {
        const platforms = platformsText([...group.platforms], access.platforms);
        const data = { call: callText(call), command: judgement.command, windows: windowsText(group.windows), platforms, reason };
        const capability = judgement.capability;
        const document = capability ? context.document(capability.source) : undefined;
        let hint = reason.startsWith("a capability denies")
          ? `remove the deny of "${judgement.command}", or do not call it`
          : addPermissionHint(judgement, judgement.permission, document, capability);
        if (!judgement.byPage && group.windows[0] !== "*")
          hint += " (judged for every window that loads local pages: which window loads this file is not known)";
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
