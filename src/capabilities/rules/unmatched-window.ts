import { compileLabelPattern } from "../engine/match/glob.js";
import { collectCodeWindowLabels, plausibleInCode, type CodeWindowLabels } from "../load/window-labels.js";
import { nearest, quoteList } from "../../core/did-you-mean.js";
import { defineRule } from "./types.js";

const MAX_LISTED_LABELS = 6;
/**
 * Characters compared between glob patterns and labels in one run (each pair costs pattern + label
 * length). Thousands of long patterns against thousands of long labels would otherwise take hours;
 * real apps compare a few thousand characters. Reaching it is reported at the pattern it stopped at.
 */
export const MAX_COMPARED_CHARACTERS = 50_000_000;

/** "a or b", "a, b or c". */
function inWords(places: readonly string[]): string {
  return places.length <= 1 ? places.join("") : `${places.slice(0, -1).join(", ")} or ${places[places.length - 1]}`;
}

export default defineRule({
  id: "unmatched-window",
  description:
    "Report `windows` and `webviews` patterns that match no window label declared in tauri.conf.json or created in the app's Rust or frontend sources.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    noLabel: '{{kind}} pattern "{{pattern}}" matches no {{kind}} label ({{labels}}) {{where}}',
    budget:
      "unmatched-window stopped at this pattern: comparing the patterns with the labels reached its limit of {{limit}} characters, so this and the later glob patterns are not checked",
  },
  async check(context) {
    const config = context.project.config;
    if (!config) return;
    const srcTauri = context.project.srcTauri;
    const code: CodeWindowLabels = srcTauri ? await collectCodeWindowLabels(srcTauri, context.project.cwd) : { labels: [], prefixes: [], searched: [] };
    // Neither the config nor the sources name a window: nothing to compare with.
    if (config.windows.length === 0 && code.labels.length === 0 && code.prefixes.length === 0) return;
    // Each declared window gets one webview with the same label, so both lists match these labels.
    const labels = [...new Set([...config.windows.map((window) => window.label), ...code.labels.map((made) => made.label)])];
    const listed = quoteList(labels.slice(0, MAX_LISTED_LABELS), "and") + (labels.length > MAX_LISTED_LABELS ? ", …" : "");
    const where = `declared in ${config.document.file}${code.searched.length ? ` or created in ${inWords(code.searched)}` : ""}`;
    const listedOrNone = listed || "none";
    // Capabilities repeat a few patterns: each is compared with the labels once.
    const unmatched = new Map<string, boolean>();
    const labelSet = new Set(labels);
    const labelCharacters = labels.reduce((sum, label) => sum + label.length, 0) + code.prefixes.reduce((sum, prefix) => sum + prefix.label.length, 0);
    let budget = MAX_COMPARED_CHARACTERS;
    const matchesNothing = (pattern: string): boolean | "over-budget" => {
      let result = unmatched.get(pattern);
      if (result === undefined) {
        const compiled = compileLabelPattern(pattern);
        // A pattern the host cannot compile is a syntax problem, reported elsewhere.
        if (!compiled.ok) result = false;
        else if (!/[*?[]/.test(pattern)) result = !labelSet.has(pattern) && !plausibleInCode(compiled.match, pattern, code);
        else {
          const cost = labelCharacters + (labels.length + code.prefixes.length) * pattern.length;
          if (cost > budget) return "over-budget";
          budget -= cost;
          result = !labels.some((label) => compiled.match(label)) && !plausibleInCode(compiled.match, pattern, code);
        }
        unmatched.set(pattern, result);
      }
      return result;
    };
    for (const capability of context.capabilities) {
      for (const field of ["windows", "webviews"] as const) {
        for (const { value: pattern, path } of capability[field]) {
          const verdict = matchesNothing(pattern);
          if (verdict === "over-budget") {
            context.report({ at: capability.source, path, messageId: "budget", data: { limit: MAX_COMPARED_CHARACTERS.toLocaleString("en-US") } });
            return;
          }
          if (!verdict) continue;
          const kind = field === "windows" ? "window" : "webview";
          const isGlob = /[*?[]/.test(pattern);
          const suggestion = nearest(pattern, labels, 1)[0];
          const created = isGlob ? `${kind}s whose labels match "${pattern}"` : `a ${kind} labelled "${pattern}"`;
          const runtime = `if the app creates ${created} in code caplint cannot read (a label from another file or crate), the pattern is right: add "caplint-disable": ["unmatched-window"] to this capability`;
          context.report({
            at: capability.source,
            path,
            messageId: "noLabel",
            data: { kind, pattern, labels: listedOrNone, where },
            hint: suggestion ? `did you mean "${suggestion}"? ${runtime[0]!.toUpperCase()}${runtime.slice(1)}` : runtime,
          });
        }
      }
    }
  },
});
