/**
 * Platform checks carried across modules: a function exported by name whose every use, in every module,
 * is a call under a platform check runs only on those platforms. wealthfolio's `installLockdown()` is
 * imported with `await import("./lockdown")` and called only under `if (!platform.is_mobile)`: its
 * `setFullscreen()` is a desktop call. The analyzer marks the candidates (`exportedCalls`, from the
 * module's own calls) and the reads that let a function or a whole module escape (reference sites); the
 * linker's values say which function or module a call or a read reaches.
 */
import { type ModuleFacts, type Platform, type Ref } from "./analyze.js";

/** What the linker says a value is, as far as this needs: one of the app's functions, or one of its modules. */
type LinkedValue =
  | { kind: "function"; file: string; id: number }
  | { kind: "local-module"; file: string }
  | { kind: string };

const ALL_PLATFORMS: readonly Platform[] = ["linux", "macOS", "windows", "android", "iOS"];

/**
 * The platforms the exported functions (and the functions declared in them) run on, keyed by
 * `file \0 function id`, for those that run on fewer than every platform. A function is narrowed when
 * some call of it was found, every call in another module stands under a check, and no other module
 * reads it (or its whole module) as a value.
 */
export function exportedFunctionPlatforms(
  files: readonly string[],
  modules: Pick<ReadonlyMap<string, ModuleFacts>, "get">,
  inert: (file: string) => boolean,
  valueOf: (ref: Ref, file: string) => LinkedValue,
  calledUnseen: ReadonlySet<string>,
): Map<string, readonly Platform[]> {
  const candidates = new Map<string, { on: Set<Platform>; called: boolean; escaped: boolean }>();
  const byModule = new Map<string, string[]>();
  for (const file of files) {
    if (inert(file)) continue;
    modules.get(file)?.functions.forEach((fn, id) => {
      if (!fn.exportedCalls) return;
      const key = `${file}\u0000${id}`;
      candidates.set(key, {
        on: new Set(fn.exportedCalls),
        called: fn.exportedCalls.length > 0,
        escaped: calledUnseen.has(file),
      });
      const keys = byModule.get(file);
      if (keys) keys.push(key);
      else byModule.set(file, [key]);
    });
  }
  const narrowed = new Map<string, readonly Platform[]>();
  if (candidates.size === 0) return narrowed;

  for (const file of files) {
    const facts = inert(file) ? undefined : modules.get(file);
    if (!facts) continue;
    const weigh = (sites: ModuleFacts["sites"]) => {
      for (const site of sites) {
        const ref = site.reference
          ? site.ref
          : site.ref.kind === "call"
            ? site.ref.callee
            : undefined;
        // Only a module's value or a member of one can be an export (a call's result cannot).
        if (!ref || !moduleValued(ref)) continue;
        const value = valueOf(ref, file);
        if (value.kind === "local-module" && "file" in value && value.file !== file) {
          // The module read whole: any of its exports may be called anywhere.
          for (const key of byModule.get(value.file) ?? []) candidates.get(key)!.escaped = true;
          continue;
        }
        if (value.kind !== "function" || !("id" in value) || value.file === file) continue;
        const candidate = candidates.get(`${value.file}\u0000${value.id}`);
        if (!candidate) continue;
        if (site.reference || !site.platforms) candidate.escaped = true;
        else {
          candidate.called = true;
          for (const platform of site.platforms) candidate.on.add(platform);
        }
      }
    };
    weigh(facts.sites);
    for (const fn of facts.functions) weigh(fn.sites);
  }

  for (const [key, { on, called, escaped }] of candidates)
    if (called && !escaped && on.size < ALL_PLATFORMS.length)
      narrowed.set(
        key,
        ALL_PLATFORMS.filter((platform) => on.has(platform)),
      );
  // The functions declared in a narrowed one (the handlers it registers) run only where it does.
  for (const file of byModule.keys())
    modules.get(file)?.functions.forEach((fn, id) => {
      const outer =
        fn.inExported === undefined ? undefined : narrowed.get(`${file}\u0000${fn.inExported}`);
      if (outer) narrowed.set(`${file}\u0000${id}`, outer);
    });
  return narrowed;
}

/** A module (`import * as m`, `import("./m")`, `await import("./m")`), an import, or a member of a module. */
function moduleValued(ref: Ref): boolean {
  switch (ref.kind) {
    case "import":
    case "dynamic-import":
      return true;
    case "await":
      return ref.value.kind === "dynamic-import";
    case "member":
      return moduleValued(ref.object);
    default:
      return false;
  }
}
