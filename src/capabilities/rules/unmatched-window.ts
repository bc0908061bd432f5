import { compileLabelPattern } from "../engine/match/glob.js";
import { collectCodeWindowLabels, plausibleInCode, type CodeWindowLabels } from "../load/window-labels.js";
import { nearest, quoteList } from "../../core/did-you-mean.js";
import { defineRule } from "./types.js";

const MAX_LISTED_LABELS = 6;

export default defineRule({
  id: "unmatched-window",
  description:
    "Report `windows` and `webviews` patterns that match no window label declared in tauri.conf.json or created in the app's Rust or frontend sources.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  messages: { noLabel: '{{kind}} pattern "{{pattern}}" matches no {{kind}} label ({{labels}}) {{where}}' },
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
    const where = `declared in ${config.document.file}${code.searched.length ? ` or created in ${code.searched.join(" or ")}` : ""}`;
    const listedOrNone = listed || "none";
    // Capabilities repeat a few patterns: each is compared with the labels once.
    const unmatched = new Map<string, boolean>();
    const matchesNothing = (pattern: string) => {
      let result = unmatched.get(pattern);
      if (result === undefined) {
        const compiled = compileLabelPattern(pattern);
        // A pattern the host cannot compile is a syntax problem, reported elsewhere.
        result = compiled.ok && !labels.some((label) => compiled.match(label)) && !plausibleInCode(compiled.match, pattern, code);
        unmatched.set(pattern, result);
      }
      return result;
    };
    for (const capability of context.capabilities) {
      for (const field of ["windows", "webviews"] as const) {
        for (const { value: pattern, path } of capability[field]) {
          if (!matchesNothing(pattern)) continue;
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
