import { checkLabel, compileLabelPattern } from "../engine/match/glob.js";
import { work } from "../work.js";
import { patternImpactOf } from "./support/platform-build.js";
import { defineRule } from "./types.js";

/** Characters that show a glob feature the host's globs lack. */
const HINTS: Record<string, string> = {
  "{": "globs have no {a,b} alternatives: write one pattern per label",
  "}": "globs have no {a,b} alternatives: write one pattern per label",
  "\\": "globs have no backslash escapes, and no label contains a backslash",
};

export default defineRule({
  id: "invalid-label-pattern",
  description:
    "Disallow window and webview patterns Tauri rejects (an error), or that contain a character no label can have (a warning).",
  category: "correctness",
  defaultSeverity: "error",
  // A capability's patterns and what it resolves to by itself (patternImpactOf), as invalid-remote-url.
  scope: "document",
  fixable: false,
  messages: {
    invalidPattern: 'invalid {{kind}} pattern "{{pattern}}": {{problem}}{{note}}',
    impossibleCharacter:
      '{{kind}} pattern "{{pattern}}" contains {{character}}, which no label can contain: it matches nothing',
  },
  async check(context) {
    // The host compiles the globs when it resolves a build's active capabilities.
    const impactOf = patternImpactOf(context);
    // Capabilities repeat their patterns (bench row 6: 40,000 window items, 100 patterns): each
    // distinct pattern is judged once per run.
    const verdicts = new Map<string, Verdict>();
    for (const capability of context.capabilities) {
      for (const field of ["windows", "webviews"] as const) {
        // An item's path is made when asked (model/capability.ts): only for a finding.
        for (const item of capability[field]) {
          const pattern = item.value;
          let verdict = verdicts.get(pattern);
          if (verdict === undefined) verdicts.set(pattern, (verdict = judge(pattern)));
          if (verdict === FINE) continue;
          if (verdict.problem !== undefined) {
            const impact = await impactOf(capability);
            context.report({
              at: capability.source,
              path: item.path,
              demote: impact.demote,
              messageId: "invalidPattern",
              data: {
                kind: field === "windows" ? "window" : "webview",
                pattern,
                problem: verdict.problem,
                note: impact.note,
              },
              hint: "globs support *, ?, [abc] and [!abc]; ** only as a whole path component; write [*] for a literal *",
            });
            continue;
          }
          const bad = verdict.character!;
          context.report({
            at: capability.source,
            path: item.path,
            // The host builds it; the pattern only grants nothing, so a warning.
            demote: true,
            messageId: "impossibleCharacter",
            data: {
              kind: field === "windows" ? "window" : "webview",
              pattern,
              character: JSON.stringify(bad),
            },
            hint: HINTS[bad] ?? "labels may only contain letters, digits, -, /, : and _",
          });
        }
      }
    }
  },
});

/** What is wrong with a pattern: the glob's syntax (`problem`), or a character no label can contain. */
interface Verdict {
  problem?: string;
  character?: string;
}

/** A pattern with nothing wrong: the verdict of almost every pattern, shared. */
const FINE: Verdict = Object.freeze({});

function judge(pattern: string): Verdict {
  work.labelPatternsJudged++;
  const compiled = compileLabelPattern(pattern);
  if (!compiled.ok) return { problem: compiled.message };
  // What remains once the glob syntax is gone must be label text, or the pattern matches nothing.
  const literal = pattern.replace(/\[!?\]?[^\]]*\]/g, "").replace(/[*?]/g, "");
  if (checkLabel(literal).ok) return FINE;
  return { character: [...literal].find((ch) => !checkLabel(ch).ok)! };
}
