import type { Capability } from "../model/types.js";
import { nearest } from "../../core/did-you-mean.js";
import { defineRule, type RuleContext } from "./types.js";
import { field, syntaxOf } from "../../core/source/syntax.js";

export default defineRule({
  id: "no-target",
  description:
    "Disallow capabilities that apply to nothing: no `windows` and no `webviews`, or `local: false` without remote URLs.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  scope: "document",
  messages: {
    noWindow:
      'capability "{{capability}}" applies to no window: it needs a "windows" or "webviews" label pattern',
    noPage: 'capability "{{capability}}" applies to no page: "local" is false and {{why}}',
  },
  check(context) {
    for (const capability of context.capabilities) {
      checkLabels(context, capability);
      checkOrigins(context, capability);
    }
  },
});

/** The host matches a capability only through these lists; when both are empty nothing matches. */
function checkLabels(context: RuleContext, capability: Capability) {
  // Judged on the lists as written: a list with wrongly typed items, or a value that is no list at
  // all, is the schema's finding, not an empty one.
  const { windows, webviews } = capability.written.listLengths;
  if (windows || webviews || windows === null || webviews === null) return;
  const present = windows === 0 ? "windows" : webviews === 0 ? "webviews" : undefined;
  const labels = context.project.config?.windows.map((w) => w.label) ?? [];
  const example = nearest(capability.identifier, labels, 1)[0] ?? labels[0] ?? "main";
  context.report({
    at: capability.source,
    path: [...capability.source.path, present ?? "identifier"],
    messageId: "noWindow",
    data: { capability: capability.identifier },
    hint: `add ${field("windows", [example], syntaxOf(capability.source))}, listing the labels (or globs such as "editor-*") of the windows that need these permissions`,
  });
}

/** `local: false` turns off the app's own pages; with no remote URL no page is left. */
function checkOrigins(context: RuleContext, capability: Capability) {
  if (capability.local || capability.written.listLengths["remote.urls"]) return;
  const what = capability.written.remoteObject ? '"remote.urls" is empty' : 'it has no "remote"';
  const syntax = syntaxOf(capability.source);
  context.report({
    at: capability.source,
    path: [...capability.source.path, "local"],
    messageId: "noPage",
    data: { capability: capability.identifier, why: what },
    hint: `remove ${field("local", false, syntax)} to grant the app's own pages, or list the remote origins in ${field("remote", { urls: ["https://example.com"] }, syntax)}`,
  });
}
