import { nearest } from "../../core/did-you-mean.js";
import { removeArrayItem } from "../../core/fix/edits.js";
import type { SourceDocument } from "../../core/source/document.js";
import { defineRule } from "./types.js";

/**
 * Runs after every other rule (`runsLast`): only then is it known which `caplint-disable` entries
 * suppressed something.
 */
export default defineRule({
  id: "unused-suppression",
  description:
    "Report `caplint-disable` entries that suppress nothing or name no rule, so stale suppressions do not hide future findings.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: true,
  runsLast: true,
  messages: {
    unknownRule: 'caplint-disable names unknown rule "{{ruleId}}"',
    pipelineFinding: '"{{ruleId}}" findings cannot be suppressed',
    unused: 'caplint-disable "{{ruleId}}" suppresses nothing in {{scope}}',
  },
  check(context) {
    for (const suppression of context.suppressions()) {
      if (suppression.used) continue;
      const { ruleId } = suppression;
      const finding = {
        at: suppression.scope,
        path: suppression.path,
        fix: (document: SourceDocument) =>
          removeArrayItem(document, suppression.path, `remove "${ruleId}" from caplint-disable`),
      };
      const rule = context.rules.get(ruleId);
      if (!rule) {
        const close = nearest(ruleId, context.rules.keys(), 1);
        context.report({
          ...finding,
          messageId: "unknownRule",
          data: { ruleId },
          hint: close.length ? `did you mean "${close[0]}"?` : "list rules with: caplint rules",
        });
      } else if (rule.kind === "pipeline") {
        context.report({
          ...finding,
          messageId: "pipelineFinding",
          data: { ruleId },
          hint: "remove it from caplint-disable and fix the file",
        });
      } else {
        context.report({
          ...finding,
          messageId: "unused",
          data: { ruleId, scope: suppression.scope.label },
          hint: "remove it",
        });
      }
    }
  },
});
