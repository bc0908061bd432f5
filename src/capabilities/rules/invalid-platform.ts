import { replaceStringValue } from "../../core/fix/edits.js";
import { isTarget, TARGETS } from "../model/types.js";
import { nearest, quoteList } from "../../core/did-you-mean.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "invalid-platform",
  description:
    "Disallow `platforms` values other than Tauri's case-sensitive targets linux, macOS, windows, android and iOS.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: true,
  scope: "document",
  messages: {
    invalid: 'invalid platform "{{value}}": expected one of {{targets}} (case-sensitive)',
  },
  check(context) {
    for (const capability of context.capabilities) {
      for (const { value, path } of capability.platforms ?? []) {
        if (isTarget(value)) continue;
        const sameLetters = TARGETS.find((t) => t.toLowerCase() === value.toLowerCase().trim());
        const suggestion =
          sameLetters ?? ALIASES.get(value.toLowerCase()) ?? nearest(value, TARGETS, 1)[0];
        context.report({
          at: capability.source,
          path,
          messageId: "invalid",
          data: { value, targets: quoteList(TARGETS) },
          hint: suggestion ? `write "${suggestion}"` : undefined,
          // A case or spacing slip has one meaning; an alias such as "darwin" is left for a human.
          fix: sameLetters
            ? (document) =>
                replaceStringValue(document, path, sameLetters, `write "${sameLetters}"`)
            : undefined,
        });
      }
    }
  },
});

// A Map, not an object literal: "constructor" or "__proto__" must not find Object.prototype's members.
const ALIASES = new Map<string, string>([
  ["darwin", "macOS"],
  ["mac", "macOS"],
  ["osx", "macOS"],
  ["win", "windows"],
  ["win32", "windows"],
  ["ios", "iOS"],
  ["ipados", "iOS"],
]);
