import path from "node:path";
import { Catalog } from "../catalog/catalog.js";
import { APP_KEY, type Manifest } from "../catalog/types.js";
import { entryIdentifiers } from "./support/entry-identifiers.js";
import { reportResolutionProblems } from "./support/resolution-problems.js";
import { defineRule, type RuleContext } from "./types.js";

export default defineRule({
  id: "set-cycle",
  description:
    "Disallow permission sets that include themselves, directly or through other sets (Tauri's build overflows its stack).",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: {
    cycle: "{{problem}}{{via}}",
    tooLarge: "{{problem}}{{via}}",
    unusedCycle:
      'permission set "{{set}}" includes itself ({{loop}}); no capability grants {{granted}}, so the build passes, but {{framework}}\'s "not allowed" error walks sets without a cycle check and overflows the stack in debug builds',
  },
  async check(context) {
    await reportResolutionProblems(context, { "set-cycle": "cycle", "set-too-large": "tooLarge" });
    reportUnusedCycles(context);
  },
});

/**
 * A set that includes itself in a plugin no capability uses does not break the build (only granted
 * sets are expanded), but the host's "not allowed" message lists a command's permissions by walking
 * every set without a cycle check, and overflows the stack in debug builds: a warning.
 */
function reportUnusedCycles(context: RuleContext): void {
  const used = new Set<string>();
  // Each identifier parsed once, from the run's numbered identifiers (the identifier rules share
  // them): 66,660 entries name a few hundred of them in the bench's app.
  const { identifiers } = entryIdentifiers(context.entries());
  for (let n = 0; n < identifiers.length; n++) used.add(Catalog.keyOf(identifiers[n]!)?.key ?? "");
  for (const key of context.catalog.keys()) {
    const provenance = context.catalog.provenanceOf(key);
    if (
      used.has(key) ||
      !provenance ||
      provenance.origin === "builtin" ||
      provenance.file === undefined
    )
      continue;
    const manifest = context.catalog.get(key)!;
    for (const [name, loop] of selfIncludingSets(key, manifest)) {
      const qualified = key === APP_KEY ? name : `${key}:${name}`;
      // The loader remembers which permission file's definition of the set the build uses; the
      // folder it came from is the fallback for a set without one (never the case for folder manifests).
      const set = manifest.permission_sets[name];
      const where = set?.definedIn ?? path.resolve(context.project.cwd, provenance.file);
      context.report({
        at: { absolutePath: where },
        // At the identifier of the set's definition, the line to open to break the loop.
        path:
          set?.definedIn !== undefined && set.definedAtIndex !== undefined
            ? ["set", set.definedAtIndex, "identifier"]
            : [],
        demote: true,
        messageId: "unusedCycle",
        data: {
          set: qualified,
          loop: loop.join(" → "),
          framework: context.catalog.framework,
          granted: key === APP_KEY ? "the app's permissions" : `plugin "${key}"`,
        },
        hint: `remove "${loop[loop.length - 1]}" from set "${loop[loop.length - 2]}"`,
      });
    }
  }
}

/** Sets of one manifest that reach themselves through members of the same manifest, with the loop. */
function selfIncludingSets(key: string, manifest: Manifest): Array<[string, string[]]> {
  const sets = manifest.permission_sets;
  const local = (member: string) => {
    const parts = Catalog.keyOf(member);
    if (!parts) return undefined;
    if (parts.key === APP_KEY || parts.key === key) return parts.base;
    return undefined;
  };
  const out: Array<[string, string[]]> = [];
  // One finding per loop: a set already on a reported loop is not reported again.
  const onLoops = new Set<string>();
  for (const start of Object.keys(sets)) {
    if (onLoops.has(start)) continue;
    // Depth-first search for a path back to `start`; each set is visited once, so it stays linear per start.
    const seen = new Set<string>();
    const walk = (name: string, trail: string[]): string[] | undefined => {
      for (const member of sets[name]?.permissions ?? []) {
        const next = local(member);
        if (next === undefined || !Object.hasOwn(sets, next)) continue;
        if (next === start) return [...trail, next];
        if (seen.has(next)) continue;
        seen.add(next);
        const found = walk(next, [...trail, next]);
        if (found) return found;
      }
      return undefined;
    };
    const loop = walk(start, [start]);
    if (loop) {
      out.push([start, loop]);
      for (const name of loop) onLoops.add(name);
    }
  }
  return out;
}
