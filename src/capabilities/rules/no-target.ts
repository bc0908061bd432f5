import { isPlainObject } from "../../core/json.js";
import type { Capability } from "../model/types.js";
import { nearest } from "../../core/did-you-mean.js";
import { defineRule, type RuleContext } from "./types.js";

export default defineRule({
  id: "no-target",
  description: "Disallow capabilities that apply to nothing: no `windows` and no `webviews`, or `local: false` without remote URLs.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    noWindow: 'capability "{{capability}}" applies to no window: it needs a "windows" or "webviews" label pattern',
    noPage: 'capability "{{capability}}" applies to no page: "local" is false and {{why}}',
  },
  check(context) {
    for (const capability of context.capabilities) {
      const raw = context.raw(capability);
      checkLabels(context, capability, raw);
      checkOrigins(context, capability, raw);
    }
  },
});

/** The host matches a capability only through these lists; when both are empty nothing matches. */
function checkLabels(context: RuleContext, capability: Capability, raw: Record<string, unknown>) {
  // Judged on the raw lists: a list with wrongly typed items, or a value that is no list at all, is
  // the schema's finding, not an empty one.
  if (nonEmptyArray(raw.windows) || nonEmptyArray(raw.webviews)) return;
  if ([raw.windows, raw.webviews].some((value) => value !== undefined && !Array.isArray(value))) return;
  const present = Array.isArray(raw.windows) ? "windows" : Array.isArray(raw.webviews) ? "webviews" : undefined;
  const labels = context.project.config?.windows.map((w) => w.label) ?? [];
  const example = nearest(capability.identifier, labels, 1)[0] ?? labels[0] ?? "main";
  context.report({
    at: capability.source,
    path: [...capability.source.path, present ?? "identifier"],
    messageId: "noWindow",
    data: { capability: capability.identifier },
    hint: `add "windows": ["${example}"], listing the labels (or globs such as "editor-*") of the windows that need these permissions`,
  });
}

/** `local: false` turns off the app's own pages; with no remote URL no page is left. */
function checkOrigins(context: RuleContext, capability: Capability, raw: Record<string, unknown>) {
  if (raw.local !== false) return;
  const urls = isPlainObject(raw.remote) ? raw.remote.urls : undefined;
  if (nonEmptyArray(urls)) return;
  const what = isPlainObject(raw.remote) ? '"remote.urls" is empty' : 'it has no "remote"';
  context.report({
    at: capability.source,
    path: [...capability.source.path, "local"],
    messageId: "noPage",
    data: { capability: capability.identifier, why: what },
    hint: 'remove "local": false to grant the app\'s own pages, or list the remote origins in "remote": { "urls": ["https://example.com"] }',
  });
}

function nonEmptyArray(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}
