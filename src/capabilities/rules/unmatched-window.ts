import { compileLabelPattern } from "../engine/match/glob.js";
import { nearest, quoteList } from "../../core/did-you-mean.js";
import { defineRule } from "./types.js";

const MAX_LISTED_LABELS = 6;

export default defineRule({
  id: "unmatched-window",
  description: "Report `windows` and `webviews` patterns that match none of the window labels declared in tauri.conf.json.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  check(context) {
    const config = context.project.config;
    // An app that declares no window creates all of them in code: there is nothing to compare with.
    if (!config || config.windows.length === 0) return;
    // Each declared window gets one webview with the same label, so both lists match these labels.
    const labels = [...new Set(config.windows.map((window) => window.label))];
    const listed = quoteList(labels.slice(0, MAX_LISTED_LABELS), "and") + (labels.length > MAX_LISTED_LABELS ? ", …" : "");
    for (const capability of context.capabilities) {
      const raw = context.raw(capability);
      for (const field of ["windows", "webviews"] as const) {
        const patterns = raw[field];
        if (!Array.isArray(patterns)) continue;
        patterns.forEach((pattern, index) => {
          if (typeof pattern !== "string") return;
          const compiled = compileLabelPattern(pattern);
          // A pattern the host cannot compile is a syntax problem, reported elsewhere.
          if (!compiled.ok || labels.some((label) => compiled.match(label))) return;
          const kind = field === "windows" ? "window" : "webview";
          const isGlob = /[*?[]/.test(pattern);
          const suggestion = nearest(pattern, labels, 1)[0];
          const created = isGlob ? `${kind}s whose labels match "${pattern}"` : `a ${kind} labelled "${pattern}"`;
          const runtime = `if the app creates ${created} in code, the pattern is right: add "caplint-disable": ["unmatched-window"] to this capability`;
          context.report({
            at: capability.source,
            path: [...capability.source.path, field, index],
            message: `${kind} pattern "${pattern}" matches no ${kind} declared in ${config.document.file} (${listed})`,
            hint: suggestion ? `did you mean "${suggestion}"? ${runtime[0]!.toUpperCase()}${runtime.slice(1)}` : runtime,
          });
        });
      }
    }
  },
});
