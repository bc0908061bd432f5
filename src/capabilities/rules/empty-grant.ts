import { Catalog } from "../catalog/catalog.js";
import { APP_KEY } from "../catalog/types.js";
import { expandIdentifier } from "../engine/index.js";
import { quoteList } from "../../core/did-you-mean.js";
import { forEachJudgedEntry } from "./support/entry-identifiers.js";
import { defineRule } from "./types.js";

/** What a finding says of an identifier that grants nothing. */
interface EmptyGrant {
  what: string;
  key: string;
  release: string;
  hint: string;
}

const LISTED_PERMISSIONS = 3;

export default defineRule({
  id: "empty-grant",
  description:
    "Report a set or default that enables no command and no scope at the release the app builds with (`global-shortcut:default` and `clipboard-manager:default` are empty sets): true, harmless, and the calls it was meant for are still refused.",
  category: "suspicious",
  // It changes nothing at run time: a suggestion, as the severity contract says of what is true but inert.
  defaultSeverity: "suggestion",
  fixable: false,
  scope: "document",
  messages: {
    emptySet:
      '"{{identifier}}" grants nothing: {{what}} is empty{{release}}, so it enables none of the {{plugin}} plugin\'s commands',
  },
  check(context) {
    const catalog = context.catalog;
    // Each distinct identifier is judged once, its finding's words with it; the entries are walked by
    // the shared numbering of their identifiers (no lookup of each entry's text).
    const judge = (identifier: string): EmptyGrant | undefined => {
      const parsed = Catalog.keyOf(identifier);
      const found = parsed && catalog.lookupTopLevel(parsed.key, parsed.base);
      // A default the plugin does not have is default-without-set's, a set with a member that does not
      // resolve is unknown-set-member's or set-cycle's; the app's own sets are its to shape as it likes.
      if (!found || found.kind === "permission" || !found.set || found.key === APP_KEY)
        return undefined;
      const { leaves, problems } = expandIdentifier(catalog, identifier);
      if (problems.length) return undefined;
      const inert = leaves.every(({ permission }) => {
        const commands = permission.commands.allow.length + permission.commands.deny.length;
        return (
          commands === 0 && !(permission.scope?.allow?.length || permission.scope?.deny?.length)
        );
      });
      if (!inert) return undefined;
      const key = found.key;
      const locked = catalog.lockedVersionOf(key);
      const release =
        locked && locked.source !== "newest" ? ` at ${locked.crate} ${locked.version}` : "";
      const allows = Object.keys(catalog.get(key)?.permissions ?? {})
        .filter((name) => name.startsWith("allow-"))
        .map((name) => catalog.spellIdentifier(`${key}:${name}`));
      const examples =
        quoteList(allows.slice(0, LISTED_PERMISSIONS), "or") +
        (allows.length > LISTED_PERMISSIONS ? ", …" : "");
      return {
        what: found.kind === "default" ? "its default set" : `the set "${parsed.base}"`,
        key,
        release,
        hint: allows.length
          ? `grant the commands the app calls instead (${examples}), or remove it`
          : "remove it",
      };
    };
    forEachJudgedEntry(context.entries(), judge, (empty, capability, entry) => {
      context.report({
        at: capability.source,
        path: entry.path,
        messageId: "emptySet",
        data: {
          identifier: entry.identifier,
          release: empty.release,
          what: empty.what,
          plugin: empty.key,
        },
        hint: empty.hint,
      });
    });
  },
});
