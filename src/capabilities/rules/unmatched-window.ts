import { compileLabelPattern } from "../engine/match/glob.js";
import { plausibleInCode, type CodeWindowLabels } from "../load/window-labels.js";
import { nearest, quoteList, wordList } from "../../core/did-you-mean.js";
import { defineRule } from "./types.js";
import { SUPPRESSION_FIELD } from "../model/capability.js";
import { field as fieldText, syntaxOf } from "../../core/source/syntax.js";
import { TARGETS, loadedOn, type Capability, type Target } from "../model/types.js";

const MAX_LISTED_LABELS = 6;
/**
 * Characters compared between glob patterns and labels in one run (each pair costs pattern + label
 * length). Thousands of long patterns against thousands of long labels would otherwise take hours;
 * real apps compare a few thousand characters. Reaching it is reported at the pattern it stopped at.
 */
export const MAX_COMPARED_CHARACTERS = 50_000_000;

export default defineRule({
  id: "unmatched-window",
  description:
    "Report `windows` and `webviews` patterns that match no window label declared in the app config (per target, with its platform configs) or created in the app's Rust or frontend sources.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  scope: "document",
  messages: {
    noLabel: '{{kind}} pattern "{{pattern}}" matches no {{kind}} label ({{labels}}) {{where}}',
    otherTargets:
      '{{kind}} pattern "{{pattern}}" matches no {{kind}} label on {{targets}}, the platforms the capability is for: "{{label}}" is declared for {{declaredFor}} only, in {{declaredIn}} ({{targets}}: {{labels}})',
    budget:
      "unmatched-window stopped at this pattern: comparing the patterns with the labels reached its limit of {{limit}} characters, so this and the later glob patterns are not checked",
  },
  async check(context) {
    const config = context.project.config;
    if (!config) return;
    const code: CodeWindowLabels = context.project.codeWindows ?? {
      labels: [],
      prefixes: [],
      searched: [],
    };
    // Neither the configs nor the sources name a window: nothing to compare with.
    if (config.windows.length === 0 && code.labels.length === 0 && code.prefixes.length === 0)
      return;
    const created = code.searched.length ? ` or created in ${wordList(code.searched, "or")}` : "";
    // Platform configs that declare their own windows make the labels a matter of target.
    const perTarget = config.windows.some((window) => window.platforms !== undefined);
    let budget = MAX_COMPARED_CHARACTERS;
    const views = new Map<string, LabelView>();
    const viewOf = (targets: readonly Target[]): LabelView => {
      const key = targets.join();
      let view = views.get(key);
      if (view) return view;
      const declared = config.windows.filter(
        (window) =>
          !window.platforms || window.platforms.some((target) => targets.includes(target)),
      );
      // Each declared window gets one webview with the same label, so both lists match these labels.
      const labels = [
        ...new Set([
          ...declared.map((window) => window.label),
          ...code.labels.map((made) => made.label),
        ]),
      ];
      const files = [
        ...new Set(
          declared.length ? declared.map((window) => window.document.file) : [config.document.file],
        ),
      ];
      const everywhere = targets.length === TARGETS.length;
      view = {
        targets,
        labels,
        labelSet: new Set(labels),
        listed:
          quoteList(labels.slice(0, MAX_LISTED_LABELS), "and") +
            (labels.length > MAX_LISTED_LABELS ? ", …" : "") || "none",
        where: perTarget
          ? `declared${everywhere ? "" : ` for ${wordList(targets)}`} in ${wordList(files)}${created}`
          : `declared in ${config.document.file}${created}`,
        characters:
          labels.reduce((sum, label) => sum + label.length, 0) +
          code.prefixes.reduce((sum, prefix) => sum + prefix.label.length, 0),
        unmatched: new Map(),
      };
      views.set(key, view);
      return view;
    };
    // Capabilities repeat a few patterns: each is compared with a view's labels once.
    const matchesNothing = (pattern: string, view: LabelView): boolean | "over-budget" => {
      let result = view.unmatched.get(pattern);
      if (result === undefined) {
        const compiled = compileLabelPattern(pattern);
        // A pattern the host cannot compile is a syntax problem, reported elsewhere.
        if (!compiled.ok) result = false;
        else if (!/[*?[]/.test(pattern))
          result = !view.labelSet.has(pattern) && !plausibleInCode(compiled.match, pattern, code);
        else {
          const cost =
            view.characters + (view.labels.length + code.prefixes.length) * pattern.length;
          if (cost > budget) return "over-budget";
          budget -= cost;
          result =
            !view.labels.some((label) => compiled.match(label)) &&
            !plausibleInCode(compiled.match, pattern, code);
        }
        view.unmatched.set(pattern, result);
      }
      return result;
    };
    const onSomeTargets = config.windows.filter((window) => window.platforms !== undefined);
    /** A window declared only on targets the view lacks that the pattern matches, within the budget. */
    const declaredElsewhere = (pattern: string, view: LabelView) => {
      const compiled = compileLabelPattern(pattern);
      const cost = onSomeTargets.reduce(
        (sum, window) => sum + window.label.length + pattern.length,
        0,
      );
      if (!compiled.ok || cost > budget) return undefined;
      budget -= cost;
      const found = onSomeTargets.find(
        (window) => !view.labelSet.has(window.label) && compiled.match(window.label),
      );
      if (!found) return undefined;
      const declarations = onSomeTargets.filter((window) => window.label === found.label);
      const platforms = TARGETS.filter((target) =>
        declarations.some((window) => window.platforms!.includes(target)),
      );
      return {
        label: found.label,
        platforms,
        files: [...new Set(declarations.map((window) => window.document.file))],
      };
    };
    for (const capability of context.capabilities) {
      const view = viewOf(targetsOf(capability));
      for (const field of ["windows", "webviews"] as const) {
        // An item's path is made when asked (model/capability.ts): only for a finding.
        for (const item of capability[field]) {
          const pattern = item.value;
          const verdict = matchesNothing(pattern, view);
          if (verdict === "over-budget") {
            context.report({
              at: capability.source,
              path: item.path,
              messageId: "budget",
              data: { limit: MAX_COMPARED_CHARACTERS.toLocaleString("en-US") },
            });
            return;
          }
          if (!verdict) continue;
          const path = item.path;
          const kind = field === "windows" ? "window" : "webview";
          const isGlob = /[*?[]/.test(pattern);
          const elsewhere =
            perTarget && view.targets.length < TARGETS.length
              ? declaredElsewhere(pattern, view)
              : undefined;
          if (elsewhere) {
            const declaredFor = wordList(elsewhere.platforms);
            context.report({
              at: capability.source,
              path,
              messageId: "otherTargets",
              data: {
                kind,
                pattern,
                targets: wordList(view.targets),
                labels: view.listed,
                label: elsewhere.label,
                declaredFor,
                declaredIn: wordList(elsewhere.files),
              },
              hint: `the ${kind} exists on ${declaredFor} only: add those to the capability's "platforms", or declare the window in the config of ${wordList(view.targets)}`,
            });
            continue;
          }
          const suggestion = nearest(pattern, view.labels, 1)[0];
          const made = isGlob
            ? `${kind}s whose labels match "${pattern}"`
            : `a ${kind} labelled "${pattern}"`;
          const runtime = `if the app creates ${made} in code caplint cannot read (a label from another file or crate), the pattern is right: add ${fieldText(SUPPRESSION_FIELD, ["unmatched-window"], syntaxOf(capability.source))} to this capability`;
          context.report({
            at: capability.source,
            path,
            messageId: "noLabel",
            data: { kind, pattern, labels: view.listed, where: view.where },
            hint: suggestion
              ? `did you mean "${suggestion}"? ${runtime[0]!.toUpperCase()}${runtime.slice(1)}`
              : runtime,
          });
        }
      }
    }
  },
});

/** The labels one set of targets sees: declared in the configs in force there, or made in code. */
interface LabelView {
  targets: readonly Target[];
  labels: string[];
  labelSet: Set<string>;
  /** The labels as a message lists them. */
  listed: string;
  /** Where they were looked for, in words. */
  where: string;
  /** Characters a glob pattern is compared with, besides its own length per label. */
  characters: number;
  unmatched: Map<string, boolean>;
}

/**
 * The targets a capability's pattern is judged on: those its `platforms` allow and its app config loads
 * it on. A capability for no valid target is judged on every one (its platforms are another rule's finding).
 */
function targetsOf(capability: Capability): readonly Target[] {
  const targets = TARGETS.filter((target) => loadedOn(capability, target));
  return targets.length ? targets : TARGETS;
}
