/**
 * Resolves the symbolic values of every module (analyze.ts) across files: an import of
 * `@tauri-apps/api/window` is Tauri's module, an import of `./tauri` is that file's export, which may be
 * `getCurrentWindow()` again. Each call site then becomes the use of one member of one of Tauri's
 * packages (`Window#setTitle`), or of `invoke` with its command, or is left unresolved with the reason.
 */
import { CORE_MODULE, type ApiLookup } from "./api.js";
import {
  meetPlatforms,
  type FunctionFacts,
  type ModuleFacts,
  type Platform,
  type Ref,
  type Site,
} from "./analyze.js";
import { exportedFunctionPlatforms } from "./exported.js";

type Val =
  | { kind: "tauri-module"; specifier: string }
  /** An export (`open`), a class (`Window`), a static (`Database.load`) or an instance member (`Window#setTitle`). */
  | { kind: "tauri-member"; specifier: string; name: string }
  | { kind: "tauri-instance"; specifier: string; className: string }
  /** An array of instances (`getAllWindows()`): its elements are instances. */
  | { kind: "tauri-array"; specifier: string; className: string }
  | { kind: "tauri-global" }
  | { kind: "local-module"; file: string }
  | { kind: "function"; file: string; id: number }
  | { kind: "param"; file: string; fn: number }
  | { kind: "string"; value: string }
  /**
   * An export of an inert module (one whose imports never lead to Tauri): no Tauri value, whatever it is, so
   * it is worked out (`settle`) only where a string or a function of the app could matter.
   */
  | { kind: "inert"; file: string; name: string; depth: number }
  | { kind: "unknown" };

const UNKNOWN: Val = { kind: "unknown" };

/** Where an import leads: Tauri's module, one of the app's files, or nothing the scan reads. */
export type ModuleTarget =
  { kind: "tauri"; specifier: string } | { kind: "file"; file: string } | { kind: "none" };

export interface Use {
  file: string;
  start: number;
  end: number;
  specifier: string;
  /** The member as the map names it; `invoke` for a command invoked by name. */
  member: string;
  commands: readonly string[];
  /** The first argument when it is a literal string (invoke's command, a path, a program name). */
  argument?: string;
  /** A markup attribute that makes the runtime call (`data-tauri-drag-region`). */
  trigger?: string;
  /** Why the command is not known; `commands` is then empty. */
  unresolved?: string;
  /** The platforms it runs on, when a platform check guards it (`if (isDesktop())`); undefined: every platform. */
  platforms?: readonly Platform[];
}

/** Where a use is reported, and the platform check that guards it there. */
interface At {
  start: number;
  end: number;
  platforms?: readonly Platform[];
}

interface Frame {
  file: string;
  fn: number;
  args: Val[];
}

/** How many wrappers deep a literal command is followed (`run("x")` → `call(cmd)` → `invoke(cmd)`). */
const MAX_WRAPPER_DEPTH = 4;
/** How many re-exports and bindings deep a value is followed: cycles and hostile chains end here. */
const MAX_VALUE_DEPTH = 24;

export class Linker {
  private readonly exportMemo = new Map<string, Val>();
  private readonly calledThrough = new Set<string>();
  private readonly pendingForwards = new Map<string, Use[]>();
  /** Functions whose return value is being evaluated: a recursive function ends as unknown. */
  private readonly returning = new Set<string>();
  /**
   * Each function's calls that pass one of its parameters on, found once (a function is called through once per
   * caller and wrapper depth), less those `emit` found to call nothing whatever the arguments (`deadForwards`).
   */
  private readonly forwardingSites = new WeakMap<FunctionFacts, Site[]>();
  /** Forwarding calls whose callee does not depend on the arguments and is no function nor Tauri value (`console.log(label)`). */
  private readonly deadForwards = new WeakSet<Site>();
  /** `exportsHarmless` per module and `harmlessFunction` per function, worked out once. */
  private readonly harmlessModules = new Map<string, boolean>();
  private readonly harmlessFunctions = new WeakMap<FunctionFacts, boolean>();
  readonly uses: Use[] = [];

  constructor(
    private readonly modules: Pick<ReadonlyMap<string, ModuleFacts>, "get">,
    private readonly target: (file: string, request: string) => ModuleTarget,
    private readonly api: ApiLookup,
    /** Modules whose imports never lead to Tauri (scan.ts): their own code uses nothing, their facts are read on demand. */
    private readonly inert: (file: string) => boolean = () => false,
    /**
     * Modules that an inert module may call into (its imports, followed on): their calls there go unseen, so
     * their exported functions are never narrowed to the platforms of the calls that were seen.
     */
    private readonly calledUnseen: ReadonlySet<string> = new Set(),
  ) {}

  /** Every use in the files, in file order; call once. */
  link(files: readonly string[]): Use[] {
    // Exported functions every other module calls only under a platform check run on those platforms.
    // (An inert module's value is left unsettled: it holds no function that reaches Tauri.)
    const exported = exportedFunctionPlatforms(
      files,
      this.modules,
      this.inert,
      (ref, file) => this.evaluate(ref, file, undefined, 0),
      this.calledUnseen,
    );
    for (const file of files) {
      if (this.inert(file)) continue;
      const facts = this.modules.get(file);
      if (!facts) continue;
      for (const site of facts.sites) this.emit(site, file, undefined, site);
      facts.functions.forEach((fn, id) => {
        const platforms = exported.get(`${file}\u0000${id}`);
        for (const site of fn.sites)
          this.emit(site, file, undefined, platforms ? { ...site, platforms } : site);
      });
      for (const start of facts.dragRegions) {
        const commands = this.api.implicit("data-tauri-drag-region");
        if (commands.length)
          this.uses.push({
            file,
            start,
            end: start + "data-tauri-drag-region".length,
            specifier: "",
            member: "data-tauri-drag-region",
            commands,
            trigger: "data-tauri-drag-region",
          });
      }
    }
    // A command passed on by a function nobody was seen calling with a literal: not known.
    for (const [key, uses] of this.pendingForwards)
      if (!this.calledThrough.has(key)) this.uses.push(...uses);
    return this.uses;
  }

  private emit(
    site: Site,
    file: string,
    frames: Frame[] | undefined,
    outer: At,
    atFile = file,
  ): void {
    // A check around the call and one inside the function it goes through both hold.
    const platforms =
      site === outer ? site.platforms : meetPlatforms(outer.platforms, site.platforms);
    const at: At = { start: outer.start, end: outer.end, ...(platforms ? { platforms } : {}) };
    const guard = platforms ? { platforms } : {};
    const ref = site.ref;
    if (site.reference) {
      const value = this.evaluate(ref, file, frames, 0);
      if (value.kind !== "tauri-member") return;
      const member = this.api.module(value.specifier)?.member(value.name);
      // A function passed as a value is called later with arguments not seen here: only commands that need none count.
      if (
        member &&
        member.commands.length &&
        !member.commands.some((command) => command.includes("{"))
      )
        this.uses.push({
          file: atFile,
          start: at.start,
          end: at.end,
          specifier: value.specifier,
          member: value.name,
          commands: member.commands,
          ...guard,
        });
      return;
    }
    if (ref.kind !== "call") return;
    let callee = this.evaluate(ref.callee, file, frames, 0);
    // Inside a function called through, a callee that no argument changes gives the same value at every call.
    if (
      frames !== undefined &&
      callee.kind !== "inert" &&
      callee.kind !== "function" &&
      callee.kind !== "tauri-member" &&
      argumentFree(ref.callee)
    ) {
      this.deadForwards.add(site);
      return;
    }
    // A function of an inert module called with values that hold nothing of Tauri or of the app's functions uses nothing.
    if (callee.kind === "inert") {
      if (ref.args.every((arg) => this.inertArgument(arg, file, frames))) return;
      callee = this.settle(callee);
    }
    if (callee.kind === "function") {
      if ((frames?.length ?? 0) >= MAX_WRAPPER_DEPTH) return;
      this.callThrough(callee, ref.args, file, frames, at, atFile);
      return;
    }
    if (callee.kind !== "tauri-member") return;
    const member = this.api.module(callee.specifier)?.member(callee.name);
    if (!member || member.commands.length === 0) return;
    const argument = (index: number) =>
      ref.args[index] ? this.settle(this.evaluate(ref.args[index], file, frames, 0)) : UNKNOWN;
    const first = argument(0);
    const use: Use = {
      file: atFile,
      start: at.start,
      end: at.end,
      specifier: callee.specifier,
      member: callee.name,
      commands: [],
      ...(first.kind === "string" ? { argument: first.value } : {}),
      ...guard,
    };
    // A command may name an argument (`invoke` is `{0}`) or a part known at run time only (`{?}`).
    const commands: string[] = [];
    let unresolved: string | undefined;
    let forwardedBy: string | undefined;
    for (const template of member.commands) {
      if (template.includes("{?}")) {
        unresolved ??= "part of the command is only known at run time";
        continue;
      }
      let known = true;
      const command = template.replace(/\{(\d+)\}/g, (_, index: string) => {
        const value = argument(Number(index));
        if (value.kind === "string") return value.value;
        known = false;
        if (value.kind === "param" && frames === undefined)
          forwardedBy = `${value.file}\u0000${value.fn}`;
        else unresolved ??= `argument ${Number(index) + 1} (the command) is not a literal`;
        return "";
      });
      if (known) commands.push(command);
    }
    if (commands.length) this.uses.push({ ...use, commands });
    if (forwardedBy !== undefined && unresolved === undefined) {
      // Inside a wrapper (`call(cmd) { return invoke(cmd) }`): its callers name the command.
      const pending = this.pendingForwards.get(forwardedBy) ?? [];
      pending.push({
        ...use,
        unresolved: "the command is a parameter of a function whose callers were not found",
      });
      this.pendingForwards.set(forwardedBy, pending);
    } else if (unresolved !== undefined) this.uses.push({ ...use, unresolved });
  }

  /**
   * Whether a module that names nothing of Tauri and imports this module's exports (and inert modules) can use
   * nothing: every export is a value that no call, member read or type annotation turns into a use at the
   * importer's own code, whatever the importer passes (its own values are then of the same kinds), as `emit` and
   * `callThrough` would link it. False when unsure (a cycle of modules, an export of Tauri's).
   */
  exportsHarmless(file: string): boolean {
    const known = this.harmlessModules.get(file);
    if (known !== undefined) return known;
    // A cycle of modules: not known yet, so not harmless (the importer is then read whole, as before).
    this.harmlessModules.set(file, false);
    const facts = this.modules.get(file);
    let harmless = facts !== undefined;
    if (facts) {
      for (const ref of facts.exports.values())
        if (!this.harmlessValue(this.evaluate(ref, file, undefined, 0))) {
          harmless = false;
          break;
        }
      if (harmless)
        for (const request of facts.starExports) {
          const module = this.moduleValue(file, request);
          if (module.kind === "tauri-module") harmless = false;
          else if (module.kind === "local-module" && !this.inert(module.file))
            harmless = this.exportsHarmless(module.file);
          if (!harmless) break;
        }
    }
    this.harmlessModules.set(file, harmless);
    return harmless;
  }

  /** A value given to a module that names nothing of Tauri: it can hold or become no Tauri value (see `exportsHarmless`). */
  private harmlessValue(value: Val): boolean {
    switch (value.kind) {
      case "string":
      case "unknown":
      case "param":
      case "inert":
        return true;
      case "function":
        return this.harmlessFunction(value);
      case "local-module":
        return this.inert(value.file) || this.exportsHarmless(value.file);
      default:
        return false;
    }
  }

  /**
   * Whether calling the function with values that hold nothing of Tauri (see `exportsHarmless`) can make no use at
   * the call and return no Tauri value: each call in it that uses a parameter calls nothing of Tauri and passes
   * nothing of Tauri on, and its `return`s are no Tauri value. A function calling itself again is judged by its
   * other calls (a cycle adds no use of its own).
   */
  private harmlessFunction(fn: Extract<Val, { kind: "function" }>): boolean {
    const facts = this.modules.get(fn.file)?.functions[fn.id];
    if (!facts) return true;
    const known = this.harmlessFunctions.get(facts);
    if (known !== undefined) return known;
    this.harmlessFunctions.set(facts, true);
    const harmless =
      this.returnOf(fn, 0).kind === "unknown" &&
      facts.sites.every((site) => {
        if (site.reference || site.ref.kind !== "call" || !usesParam(site.ref, fn.id)) return true;
        const args = site.ref.args;
        const argumentsHarmless = () =>
          args.every((arg) => this.harmlessValue(this.evaluate(arg, fn.file, undefined, 0)));
        // A callee read from a parameter is one of the importer's values: harmless when what it is given is.
        if (!argumentFree(site.ref.callee)) return argumentsHarmless();
        const callee = this.evaluate(site.ref.callee, fn.file, undefined, 0);
        if (callee.kind === "tauri-member") return false;
        if (callee.kind === "function") return argumentsHarmless() && this.harmlessFunction(callee);
        if (callee.kind === "inert") return argumentsHarmless();
        return true;
      });
    this.harmlessFunctions.set(facts, harmless);
    return harmless;
  }

  /** Whether an argument is a value that no function can turn into a use: a string, an unknown, a parameter, an inert value. */
  private inertArgument(arg: Ref, file: string, frames: Frame[] | undefined): boolean {
    if (arg.kind === "string" || arg.kind === "unknown" || arg.kind === "object") return true;
    if (arg.kind !== "param") return false;
    const value = this.evaluate(arg, file, frames, 0);
    return (
      value.kind === "string" ||
      value.kind === "unknown" ||
      value.kind === "param" ||
      value.kind === "inert"
    );
  }

  /** The value an inert export stands for. */
  private settle(value: Val): Val {
    while (value.kind === "inert")
      value = this.exportOf(
        { kind: "local-module", file: value.file },
        value.name,
        value.depth,
        true,
      );
    return value;
  }

  /** A call of one of the app's functions: the calls in it that use its parameters are made again with the arguments given here. */
  private callThrough(
    fn: Extract<Val, { kind: "function" }>,
    args: readonly Ref[],
    file: string,
    frames: Frame[] | undefined,
    at: At,
    atFile: string,
  ) {
    const facts = this.modules.get(fn.file)?.functions[fn.id];
    if (!facts) return;
    let forwarding = this.forwardingSites.get(facts);
    if (forwarding === undefined) {
      forwarding = facts.sites.filter((site) => usesParam(site.ref, fn.id));
      this.forwardingSites.set(facts, forwarding);
    }
    if (forwarding.length === 0) return;
    this.calledThrough.add(`${fn.file}\u0000${fn.id}`);
    const values = args.map((arg) => this.evaluate(arg, file, frames, 0));
    const inner: Frame[] = [...(frames ?? []), { file: fn.file, fn: fn.id, args: values }];
    // Arguments that hold no function nor Tauri value (strings, unknowns): reading or calling a parameter gives nothing then.
    const plain = inner.every((frame) =>
      frame.args.every(
        (value) => value.kind === "string" || value.kind === "unknown" || value.kind === "param",
      ),
    );
    let dead = 0;
    for (const site of forwarding) {
      if (this.deadForwards.has(site)) dead++;
      else if (
        !plain ||
        argumentFree(site.reference || site.ref.kind !== "call" ? site.ref : site.ref.callee)
      )
        this.emit(site, fn.file, inner, at, atFile);
    }
    if (dead)
      this.forwardingSites.set(
        facts,
        forwarding.filter((site) => !this.deadForwards.has(site)),
      );
  }

  private evaluate(ref: Ref, file: string, frames: Frame[] | undefined, depth: number): Val {
    if (depth > MAX_VALUE_DEPTH) return UNKNOWN;
    switch (ref.kind) {
      case "string":
        return ref;
      case "import": {
        const module = this.moduleValue(file, ref.request);
        return ref.name === "*" ? module : this.exportOf(module, ref.name, depth + 1);
      }
      case "dynamic-import":
        return this.moduleValue(file, ref.request);
      case "global":
        return ref.name === "__TAURI_INTERNALS__"
          ? { kind: "tauri-module", specifier: CORE_MODULE }
          : { kind: "tauri-global" };
      case "member":
        return this.memberOf(
          this.evaluate(ref.object, file, frames, depth + 1),
          ref.name,
          depth + 1,
        );
      case "await":
        return this.evaluate(ref.value, file, frames, depth + 1);
      case "call": {
        const callee = this.evaluate(ref.callee, file, frames, depth + 1);
        // One of the app's functions: what it returns (`getDb()` gives back the `Database` it loaded).
        if (callee.kind === "function" && !ref.isNew) return this.returnOf(callee, depth + 1);
        if (callee.kind !== "tauri-member") return UNKNOWN;
        if (ref.isNew)
          return isClassName(callee.name)
            ? { kind: "tauri-instance", specifier: callee.specifier, className: callee.name }
            : UNKNOWN;
        const member = this.api.module(callee.specifier)?.member(callee.name);
        if (member?.returnsArrayOf)
          return {
            kind: "tauri-array",
            specifier: callee.specifier,
            className: member.returnsArrayOf,
          };
        return member?.returns
          ? { kind: "tauri-instance", specifier: callee.specifier, className: member.returns }
          : UNKNOWN;
      }
      case "element": {
        const array = this.evaluate(ref.of, file, frames, depth + 1);
        return array.kind === "tauri-array"
          ? { kind: "tauri-instance", specifier: array.specifier, className: array.className }
          : UNKNOWN;
      }
      case "typed": {
        const type = this.evaluate(ref.type, file, frames, depth + 1);
        return type.kind === "tauri-member" && isClassName(type.name)
          ? { kind: "tauri-instance", specifier: type.specifier, className: type.name }
          : UNKNOWN;
      }
      case "function":
        return { kind: "function", file, id: ref.id };
      case "param": {
        for (let i = (frames?.length ?? 0) - 1; i >= 0; i--) {
          const frame = frames![i]!;
          if (frame.file === file && frame.fn === ref.fn) return frame.args[ref.index] ?? UNKNOWN;
        }
        return { kind: "param", file, fn: ref.fn };
      }
      default:
        return UNKNOWN;
    }
  }

  /** The value a function of the app returns: the first of its `return`s that is one of Tauri's values. */
  private returnOf(fn: Extract<Val, { kind: "function" }>, depth: number): Val {
    const key = `${fn.file}\u0000${fn.id}`;
    if (this.returning.has(key)) return UNKNOWN;
    this.returning.add(key);
    try {
      for (const value of this.modules.get(fn.file)?.functions[fn.id]?.returns ?? []) {
        const result = this.evaluate(value, fn.file, undefined, depth + 1);
        if (
          result.kind === "tauri-instance" ||
          result.kind === "tauri-array" ||
          result.kind === "tauri-member" ||
          result.kind === "tauri-module"
        )
          return result;
      }
      return UNKNOWN;
    } finally {
      this.returning.delete(key);
    }
  }

  private moduleValue(file: string, request: string): Val {
    const target = this.target(file, request);
    if (target.kind === "tauri") return { kind: "tauri-module", specifier: target.specifier };
    if (target.kind === "file") return { kind: "local-module", file: target.file };
    return UNKNOWN;
  }

  private memberOf(object: Val, name: string, depth: number): Val {
    object = this.settle(object);
    switch (object.kind) {
      case "tauri-global": {
        const specifier = this.api.globalNamespace(name);
        return specifier ? { kind: "tauri-module", specifier } : UNKNOWN;
      }
      case "tauri-module":
      case "local-module":
        return this.exportOf(object, name, depth);
      case "tauri-member":
        // `Database.load`: a static member of an exported class.
        return isClassName(object.name)
          ? { kind: "tauri-member", specifier: object.specifier, name: `${object.name}.${name}` }
          : UNKNOWN;
      case "tauri-instance":
        return {
          kind: "tauri-member",
          specifier: object.specifier,
          name: `${object.className}#${name}`,
        };
      default:
        return UNKNOWN;
    }
  }

  private exportOf(module: Val, name: string, depth: number, settling = false): Val {
    if (module.kind === "tauri-module") {
      // `import { window } from "@tauri-apps/api"`: the root module's namespaces are modules of their own.
      const namespace = `${module.specifier}/${name}`;
      if (module.specifier === "@tauri-apps/api" && this.api.module(namespace))
        return { kind: "tauri-module", specifier: namespace };
      // A default export that is a class (`import Database from "@tauri-apps/plugin-sql"`): the map says which.
      if (name === "default") {
        const className = this.api.module(module.specifier)?.member("default")?.returns;
        return className
          ? { kind: "tauri-member", specifier: module.specifier, name: className }
          : UNKNOWN;
      }
      return { kind: "tauri-member", specifier: module.specifier, name };
    }
    if (module.kind !== "local-module" || depth > MAX_VALUE_DEPTH) return UNKNOWN;
    if (!settling && this.inert(module.file))
      return { kind: "inert", file: module.file, name, depth };
    const key = `${module.file}\u0000${name}`;
    const memo = this.exportMemo.get(key);
    if (memo) return memo;
    // A cycle of re-exports ends as unknown.
    this.exportMemo.set(key, UNKNOWN);
    const facts = this.modules.get(module.file);
    let value: Val = UNKNOWN;
    if (facts) {
      const own = facts.exports.get(name);
      if (own) value = this.evaluate(own, module.file, undefined, depth + 1);
      else if (name !== "default") {
        for (const request of facts.starExports) {
          value = this.settle(
            this.exportOf(this.moduleValue(module.file, request), name, depth + 1),
          );
          if (value.kind !== "unknown") break;
        }
      }
    }
    this.exportMemo.set(key, value);
    return value;
  }
}

/** Whether a call passes one of the function's parameters on (in its arguments or as the object it calls). */
function usesParam(ref: Ref, fn: number): boolean {
  switch (ref.kind) {
    case "param":
      return ref.fn === fn;
    case "call":
      return ref.args.some((arg) => usesParam(arg, fn)) || usesParam(ref.callee, fn);
    case "member":
      return usesParam(ref.object, fn);
    case "await":
      return usesParam(ref.value, fn);
    default:
      return false;
  }
}

/**
 * Whether `evaluate` gives a value without reading a parameter (it does not evaluate a call's arguments). The parts it
 * evaluates are one chain (`a.b().c` is a member of a call of a member of `a`): when that chain starts at a parameter
 * whose value is a string or unknown, its value is that or unknown.
 */
function argumentFree(ref: Ref): boolean {
  switch (ref.kind) {
    case "param":
      return false;
    case "member":
      return argumentFree(ref.object);
    case "await":
      return argumentFree(ref.value);
    case "call":
      return argumentFree(ref.callee);
    case "element":
      return argumentFree(ref.of);
    case "typed":
      return argumentFree(ref.type);
    default:
      return true;
  }
}

/** Classes are written with a capital (`Window`, `Store`); functions are not (`open`). */
function isClassName(name: string): boolean {
  return (/^[A-Z]/.test(name) || name === "default") && !name.includes("#") && !name.includes(".");
}
