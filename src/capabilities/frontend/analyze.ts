/**
 * What one frontend file says, from its syntax tree alone: what it imports, what it exports, and every
 * call or reference whose meaning another module decides (`invoke("x")`, `getCurrentWindow().show()`,
 * `appWindow.close` passed as a handler). Values are kept symbolic (`Ref`): the import of a name, a
 * member of it, a call of it; the graph (graph.ts) resolves them across files once every module is read.
 * Nothing here knows which package is Tauri's: a file is read once whatever its imports turn out to be.
 */

/** A value as the code builds it, before the modules it comes from are known. */
export type Ref =
  | { kind: "import"; request: string; name: string }
  | { kind: "dynamic-import"; request: string }
  | { kind: "global"; name: string }
  | { kind: "member"; object: Ref; name: string }
  | { kind: "call"; callee: Ref; args: Ref[]; isNew: boolean }
  | { kind: "await"; value: Ref }
  /** A binding declared with a type (`win: Window`): an instance of what the type names. */
  | { kind: "typed"; type: Ref }
  | { kind: "function"; id: number }
  | { kind: "param"; fn: number; index: number }
  | { kind: "string"; value: string }
  /** Members of an object literal (`{ SAVE: "save_note" }`), for constants read by key. */
  | { kind: "object"; members: ReadonlyMap<string, Ref> }
  /** An element of an array (`for (const w of await getAllWindows())`, `windows[0]`, `list.find(…)`). */
  | { kind: "element"; of: Ref }
  | { kind: "unknown" };

const UNKNOWN: Ref = { kind: "unknown" };

export interface Site {
  /** A call, `new`, or a member or name read whose value may be a bound method. */
  ref: Ref;
  start: number;
  end: number;
  /** A read, not a call: counts only when it names a command-making member. */
  reference: boolean;
  /** The platforms on which the code runs, when a platform check guards it (`if (isDesktop())`); undefined: every platform. */
  platforms?: readonly Platform[];
}

export type Platform = "linux" | "macOS" | "windows" | "android" | "iOS";
const ALL_PLATFORMS: readonly Platform[] = ["linux", "macOS", "windows", "android", "iOS"];
const DESKTOP: readonly Platform[] = ["linux", "macOS", "windows"];
const MOBILE: readonly Platform[] = ["android", "iOS"];

export interface FunctionFacts {
  params: number;
  /** Calls inside the function (not inside functions nested in it). */
  sites: Site[];
  /** What its `return` statements (or an arrow's expression body) give back: `getDb()` returns the `Database` it loaded. */
  returns: Ref[];
  /**
   * Set on a named function that escapes its module only through a named export: where this module's own
   * calls of it run (empty: none here). The linker joins the other modules' calls to narrow it (exported.ts).
   */
  exportedCalls?: readonly Platform[];
  /** The exported function (one with `exportedCalls`) this one is declared in: it runs only where that one does. */
  inExported?: number;
}

export interface ModuleFacts {
  /** Requests of static imports and re-exports, and of literal dynamic imports, in source order. */
  requests: string[];
  exports: Map<string, Ref>;
  /** `export * from "x"`. */
  starExports: string[];
  /** Calls at the top level of the module (they run when it loads, or from handlers it registers). */
  sites: Site[];
  functions: FunctionFacts[];
  /** Offsets of `data-tauri-drag-region` attributes (JSX, or markup: blocks.ts). */
  dragRegions: number[];
  /** Dynamic `import()` whose module is not a literal. */
  dynamicRequests: number[];
}

export function emptyFacts(): ModuleFacts {
  return {
    requests: [],
    exports: new Map(),
    starExports: [],
    sites: [],
    functions: [],
    dragRegions: [],
    dynamicRequests: [],
  };
}

// ESTree nodes as oxc-parser gives them: only the fields read here are typed.
interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** A parameter whose value the call that passes the function decides (`import("x").then((m) => …)`). */
type GivenValue = Node & { givenValue?: Ref };

const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && typeof (value as Node).type === "string";

/** How deep the walk goes into nested expressions: deeper code (generated, hostile) is not read, so the stack cannot overflow. */
const MAX_DEPTH = 1_500;

class Scope {
  readonly names = new Map<string, Ref>();
  /** Constants that hold a platform check (`const canScan = isMobile`). */
  readonly checks = new Map<string, GuardSplit>();
  constructor(
    readonly parent: Scope | undefined,
    /** The function this scope belongs to (its parameters are `param` refs of it). */
    readonly fn: number | undefined,
    /** `this.x` members of the class whose body this scope is in. */
    readonly thisMembers?: Map<string, Ref>,
  ) {}
  lookup(name: string): Ref | undefined {
    return this.names.get(name) ?? this.parent?.lookup(name);
  }
  /** The platform check a constant holds, from the scope that declares the name. */
  check(name: string): GuardSplit | undefined {
    return this.names.has(name) ? this.checks.get(name) : this.parent?.check(name);
  }
  thisScope(): Map<string, Ref> | undefined {
    return this.thisMembers ?? this.parent?.thisScope();
  }
}

const FUNCTION_TYPES = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
]);
/** Array methods whose callback gets an element as its first parameter (`windows.forEach((w) => w.close())`). */
const ELEMENT_CALLBACKS = new Set([
  "forEach",
  "map",
  "flatMap",
  "filter",
  "find",
  "findLast",
  "some",
  "every",
  "findIndex",
  "reduce",
]);
/** Array methods that return one element (`list.find(…)`, `list.at(0)`, `list.pop()`). */
const ELEMENT_RESULTS = new Set(["find", "findLast", "at", "pop", "shift"]);
/** Array methods that return the array's elements again (`list.filter(…)`). */
const ARRAY_RESULTS = new Set([
  "filter",
  "slice",
  "reverse",
  "sort",
  "toSorted",
  "toReversed",
  "concat",
]);
/** How many callers deep finish() follows a function's narrowing (`a()` under a check calls `b()`, which calls `c()`). */
const MAX_CALL_CHAIN = 64;
/** How many values a function's `return`s record: enough for `if (!x) x = load(); return x`, bounded for generated code. */
const MAX_RETURNS = 8;
const TRANSPARENT = new Set([
  "TSAsExpression",
  "TSSatisfiesExpression",
  "TSNonNullExpression",
  "TSTypeAssertion",
  "ParenthesizedExpression",
  "ChainExpression",
]);

/** Collects the facts of one program (a block of a file); `offset` places its positions in the file. */
export class ModuleAnalyzer {
  private readonly top: Scope;
  private scope: Scope;
  private sites: Site[];
  private depth = 0;
  private offset = 0;
  /** The platforms the code being read runs on, under a platform check; undefined: every platform. */
  private guard: readonly Platform[] | undefined;
  /** The function each function is declared in (undefined: the module's top level). */
  private readonly declaredIn: Array<number | undefined> = [];
  /** Functions bound to one name where they are declared (`function f`, `const f = () => …`). */
  private readonly named = new Set<number>();
  /** Named functions used otherwise than called by name (passed, stored, a default or component export): callers not all known. */
  private readonly escaped = new Set<number>();
  /** Named functions exported by name: their callers in other modules are weighed by the linker (exported.ts). */
  private readonly exported = new Set<number>();
  /** Where each named function is called by name: the platform check there and the function the call is in. */
  private readonly calledAt = new Map<
    number,
    Array<{ platforms: readonly Platform[] | undefined; from: number | undefined }>
  >();
  /** Set when nested code was too deep to read: a call or use of a function may have been missed. */
  private truncated = false;

  constructor(readonly facts: ModuleFacts) {
    this.top = new Scope(undefined, undefined);
    this.scope = this.top;
    this.sites = facts.sites;
  }

  /** Adds a program's facts; later blocks (a template's expressions) see the earlier blocks' top-level names. */
  addProgram(program: Node, offset: number): void {
    this.offset = offset;
    this.scope = this.top;
    this.sites = this.facts.sites;
    for (const statement of program.body as Node[]) this.hoist(statement);
    for (const statement of program.body as Node[]) this.statement(statement);
  }

  /**
   * Narrows the calls inside a module-local function to the platforms it is called on: when every use of the
   * function is a call by name under a platform check (`if (isDesktop()) await checkUpdate()`), its body runs
   * only on the union of those calls' platforms (and a function declared in it, only where it runs). Call
   * once, after every program of the module. Linear: each function and each call is weighed once.
   */
  finish(): void {
    if (this.truncated) return;
    const narrowed = new Map<number, readonly Platform[] | undefined>();
    const weighing = new Set<number>();
    const runsOn = (fn: number | undefined, depth: number): readonly Platform[] | undefined => {
      if (fn === undefined) return undefined;
      if (narrowed.has(fn)) return narrowed.get(fn);
      // A cycle of calls, or a chain deeper than any real code, is not narrowed.
      if (weighing.has(fn) || depth > MAX_CALL_CHAIN) return undefined;
      weighing.add(fn);
      let own: readonly Platform[] | undefined;
      const calls = this.calledAt.get(fn);
      if (this.named.has(fn) && !this.escaped.has(fn) && !this.exported.has(fn) && calls) {
        const union = new Set<Platform>();
        for (const call of calls) {
          const platforms = meetPlatforms(call.platforms, runsOn(call.from, depth + 1));
          if (!platforms) {
            union.clear();
            for (const platform of ALL_PLATFORMS) union.add(platform);
            break;
          }
          for (const platform of platforms) union.add(platform);
        }
        if (union.size < ALL_PLATFORMS.length)
          own = ALL_PLATFORMS.filter((platform) => union.has(platform));
      }
      const result = meetPlatforms(runsOn(this.declaredIn[fn], depth + 1), own);
      weighing.delete(fn);
      narrowed.set(fn, result);
      return result;
    };
    this.facts.functions.forEach((facts, fn) => {
      const platforms = runsOn(fn, 0);
      if (platforms)
        for (const site of facts.sites) site.platforms = meetPlatforms(site.platforms, platforms);
    });
    this.markExported(runsOn);
  }

  /**
   * For the linker: each function exported by name and used in its module only by calls by name gets the
   * platforms of those calls (`exportedCalls`; none is every platform, so it is not marked), and the
   * functions declared in it point at it (`inExported`).
   */
  private markExported(
    runsOn: (fn: number | undefined, depth: number) => readonly Platform[] | undefined,
  ): void {
    for (const fn of this.exported) {
      if (!this.named.has(fn) || this.escaped.has(fn)) continue;
      const union = new Set<Platform>();
      let everywhere = false;
      for (const call of this.calledAt.get(fn) ?? []) {
        const platforms = meetPlatforms(call.platforms, runsOn(call.from, 0));
        if (!platforms) everywhere = true;
        for (const platform of platforms ?? []) union.add(platform);
      }
      if (!everywhere)
        this.facts.functions[fn]!.exportedCalls = ALL_PLATFORMS.filter((p) => union.has(p));
    }
    this.facts.functions.forEach((facts, fn) => {
      for (let outer = this.declaredIn[fn]; outer !== undefined; outer = this.declaredIn[outer])
        if (this.facts.functions[outer]!.exportedCalls) {
          facts.inExported = outer;
          return;
        }
    });
  }

  /**
   * A value exported as `name`: a named function other modules may call under their own platform checks,
   * unless it is the default export or named as a component (`Settings`), which frameworks call.
   */
  private exportAs(value: Ref | undefined, name: string): void {
    if (value?.kind === "function" && name !== "default" && !/^[A-Z]/.test(name))
      this.exported.add(value.id);
    else this.escape(value);
  }

  /** Where a condition holds and fails, with the constants of the scope that hold platform checks. */
  private guardSplit(node: Node): GuardSplit {
    return guardSplit(node, (name) => this.scope.check(name));
  }

  /** A function used as a value (not called by name): its callers are not all known. */
  private escape(value: Ref | undefined): void {
    if (value?.kind === "function") this.escaped.add(value.id);
  }

  private site(ref: Ref, node: Node, reference = false): void {
    this.sites.push({
      ref,
      start: node.start + this.offset,
      end: node.end + this.offset,
      reference,
      ...(this.guard ? { platforms: this.guard } : {}),
    });
  }

  /** Runs `walk` with the code guarded to `platforms` (narrowed from the guard in force). */
  private guarded<T>(platforms: readonly Platform[] | undefined, walk: () => T): T {
    if (platforms === undefined) return walk();
    const outer = this.guard;
    this.guard = (outer ?? ALL_PLATFORMS).filter((platform) => platforms.includes(platform));
    try {
      return walk();
    } finally {
      this.guard = outer;
    }
  }

  /** The statements of a block; after `if (!isDesktop()) return;` the rest of the block runs on desktop only. */
  private block(statements: readonly Node[]): void {
    const outer = this.guard;
    for (const statement of statements) {
      this.statement(statement);
      if (
        statement.type === "IfStatement" &&
        !isNode(statement.alternate) &&
        exits(statement.consequent as Node)
      )
        this.guard = meetPlatforms(this.guard, this.guardSplit(statement.test as Node).otherwise);
    }
    this.guard = outer;
  }

  /** Function and class declarations and imports are known before the code that uses them runs. */
  private hoist(statement: Node): void {
    const declaration =
      statement.type.startsWith("Export") && isNode(statement.declaration)
        ? statement.declaration
        : statement;
    if (declaration.type === "ImportDeclaration") {
      const request = (declaration.source as Node).value as string;
      // A type-only import loads nothing, but names the class of a typed binding (`win: Window`).
      if (declaration.importKind !== "type") this.facts.requests.push(request);
      for (const specifier of declaration.specifiers as Node[]) {
        const local = (specifier.local as Node).name as string;
        const name =
          specifier.type === "ImportNamespaceSpecifier"
            ? "*"
            : specifier.type === "ImportDefaultSpecifier"
              ? "default"
              : moduleExportName(specifier.imported as Node);
        this.top.names.set(local, { kind: "import", request, name });
      }
    } else if (declaration.type === "FunctionDeclaration" && isNode(declaration.id)) {
      const id = this.declareFunction(declaration);
      this.named.add(id);
      this.scope.names.set(declaration.id.name as string, { kind: "function", id });
    }
  }

  private declareFunction(node: Node): number {
    const existing = (node as { __fn?: number }).__fn;
    if (existing !== undefined) return existing;
    const id = this.facts.functions.length;
    this.facts.functions.push({ params: (node.params as Node[]).length, sites: [], returns: [] });
    this.declaredIn[id] = this.scope.fn;
    (node as { __fn?: number }).__fn = id;
    return id;
  }

  private statement(node: Node): void {
    switch (node.type) {
      case "ImportDeclaration":
        return;
      case "ExportNamedDeclaration": {
        if (node.exportKind === "type") return;
        if (isNode(node.source)) {
          const request = node.source.value as string;
          this.facts.requests.push(request);
          for (const specifier of node.specifiers as Node[]) {
            if (specifier.exportKind === "type") continue;
            this.facts.exports.set(moduleExportName(specifier.exported as Node), {
              kind: "import",
              request,
              name: moduleExportName(specifier.local as Node),
            });
          }
          return;
        }
        if (isNode(node.declaration)) {
          this.statement(node.declaration);
          for (const name of declaredNames(node.declaration)) {
            const value = this.scope.lookup(name);
            this.exportAs(value, name);
            this.facts.exports.set(name, value ?? UNKNOWN);
          }
        }
        for (const specifier of node.specifiers as Node[]) {
          if (specifier.exportKind === "type") continue;
          const value = this.top.lookup(moduleExportName(specifier.local as Node));
          this.exportAs(value, moduleExportName(specifier.exported as Node));
          this.facts.exports.set(moduleExportName(specifier.exported as Node), value ?? UNKNOWN);
        }
        return;
      }
      case "ExportDefaultDeclaration": {
        const declaration = node.declaration as Node;
        if (declaration.type === "FunctionDeclaration" || declaration.type === "ClassDeclaration") {
          this.statement(declaration);
          const name = isNode(declaration.id) ? (declaration.id.name as string) : undefined;
          const value =
            (name && this.scope.lookup(name)) ||
            (declaration.type === "FunctionDeclaration" ? this.functionRef(declaration) : UNKNOWN);
          this.escape(value);
          this.facts.exports.set("default", value);
        } else this.facts.exports.set("default", this.expression(declaration));
        return;
      }
      case "ExportAllDeclaration": {
        const request = (node.source as Node).value as string;
        this.facts.requests.push(request);
        if (node.exportKind === "type") return;
        if (isNode(node.exported))
          this.facts.exports.set(moduleExportName(node.exported), {
            kind: "import",
            request,
            name: "*",
          });
        else this.facts.starExports.push(request);
        return;
      }
      case "FunctionDeclaration":
        if (isNode(node.id) && this.scope !== this.top) {
          const id = this.declareFunction(node);
          this.named.add(id);
          this.scope.names.set(node.id.name as string, { kind: "function", id });
        }
        this.functionBody(node);
        return;
      case "ClassDeclaration":
        this.classBody(node);
        return;
      case "VariableDeclaration":
        for (const declarator of node.declarations as Node[]) {
          const value = isNode(declarator.init)
            ? bindsModule(declarator)
              ? this.expressionNoSite(declarator.init)
              : this.expression(declarator.init)
            : UNKNOWN;
          // `const f = () => …`: a function bound to one name, whose calls by name can be weighed (finish()).
          if (
            value.kind === "function" &&
            FUNCTION_TYPES.has((declarator.init as Node).type) &&
            (declarator.id as Node).type === "Identifier"
          )
            this.named.add(value.id);
          this.bind(declarator.id as Node, value);
          // `const canScan = isMobile;`: a later `if (!canScan) return` is the same platform check.
          if (
            node.kind === "const" &&
            (declarator.id as Node).type === "Identifier" &&
            isNode(declarator.init)
          ) {
            const split = this.guardSplit(declarator.init);
            if (split.when || split.otherwise)
              this.scope.checks.set((declarator.id as Node).name as string, split);
          }
        }
        return;
      case "TSEnumDeclaration": {
        const members = new Map<string, Ref>();
        const body = (isNode(node.body) ? node.body.members : node.members) as Node[] | undefined;
        for (const member of body ?? []) {
          const key = member.id as Node;
          const name = key.type === "Identifier" ? (key.name as string) : String(key.value);
          members.set(
            name,
            isNode(member.initializer) ? this.expression(member.initializer) : UNKNOWN,
          );
        }
        this.scope.names.set((node.id as Node).name as string, { kind: "object", members });
        return;
      }
      case "IfStatement": {
        const test = node.test as Node;
        this.expression(test);
        const split = this.guardSplit(test);
        this.guarded(split.when, () => this.child(node.consequent as Node));
        if (isNode(node.alternate)) {
          const alternate = node.alternate;
          this.guarded(split.otherwise, () => this.child(alternate));
        }
        return;
      }
      case "BlockStatement":
        this.block(node.body as Node[]);
        return;
      case "ReturnStatement":
        if (isNode(node.argument)) this.addReturn(this.expression(node.argument));
        return;
      case "ForOfStatement": {
        // `for (const w of windows)`: the loop variable is an element; the loop has its own scope (child()).
        const iterable = this.expression(node.right as Node);
        const left = node.left as Node;
        const element: Ref =
          iterable.kind === "unknown" ? UNKNOWN : { kind: "element", of: iterable };
        if (left.type === "VariableDeclaration")
          for (const declarator of left.declarations as Node[])
            this.bind(declarator.id as Node, element);
        else this.expression(left);
        this.child(node.body as Node);
        return;
      }
      case "TSInterfaceDeclaration":
      case "TSTypeAliasDeclaration":
      case "TSModuleDeclaration":
      case "TSDeclareFunction":
        return;
      default:
        this.children(node);
    }
  }

  private functionRef(node: Node): Ref {
    return { kind: "function", id: this.declareFunction(node) };
  }

  /** A function's parameters and body in a scope of their own; its calls are the function's sites. */
  private functionBody(node: Node): Ref {
    const id = this.declareFunction(node);
    const outerScope = this.scope;
    const outerSites = this.sites;
    this.scope = new Scope(outerScope, id);
    this.sites = this.facts.functions[id]!.sites;
    (node.params as Node[]).forEach((param, index) => {
      const target = param.type === "TSParameterProperty" ? (param.parameter as Node) : param;
      this.bind(target, (param as GivenValue).givenValue ?? { kind: "param", fn: id, index });
    });
    if (node.type === "FunctionExpression" && isNode(node.id))
      this.scope.names.set(node.id.name as string, { kind: "function", id });
    const body = node.body as Node | null;
    if (body) {
      if (body.type === "BlockStatement" || body.type === "FunctionBody") {
        for (const statement of body.body as Node[]) this.hoist(statement);
        this.block(body.body as Node[]);
      } else this.addReturn(this.expression(body));
    }
    this.scope = outerScope;
    this.sites = outerSites;
    return { kind: "function", id };
  }

  /** A value the current function gives back (its callers' calls evaluate to it). */
  private addReturn(value: Ref): void {
    const fn = this.scope.fn;
    if (fn === undefined || value.kind === "unknown" || value.kind === "string") return;
    const returns = this.facts.functions[fn]!.returns;
    if (returns.length < MAX_RETURNS) returns.push(value);
  }

  private classBody(node: Node): void {
    if (isNode(node.id) && this.scope.lookup(node.id.name as string) === undefined)
      this.scope.names.set(node.id.name as string, UNKNOWN);
    if (isNode(node.superClass)) this.expression(node.superClass);
    const members = new Map<string, Ref>();
    const outer = this.scope;
    this.scope = new Scope(outer, outer.fn, members);
    for (const member of (node.body as Node).body as Node[]) {
      if (member.type === "PropertyDefinition" && !member.computed && isNode(member.key)) {
        const value = isNode(member.value)
          ? this.expression(member.value)
          : typedRef(member.typeAnnotation, this.scope);
        members.set(propertyName(member.key), value);
      } else if (member.type === "MethodDefinition" && isNode(member.value)) {
        if (member.kind === "constructor") {
          // Constructor parameter properties (`constructor(private win: Window)`) are members too.
          for (const param of member.value.params as Node[]) {
            if (
              param.type === "TSParameterProperty" &&
              isNode(param.parameter) &&
              param.parameter.type === "Identifier"
            )
              members.set(
                param.parameter.name as string,
                typedRef(param.parameter.typeAnnotation, this.scope),
              );
          }
        }
        this.functionBody(member.value);
      } else this.children(member);
    }
    this.scope = outer;
  }

  /** Declares the names a pattern binds with what they hold. */
  private bind(pattern: Node, value: Ref): void {
    switch (pattern.type) {
      case "Identifier": {
        const typed =
          value.kind === "unknown" || value.kind === "param"
            ? typedRef(pattern.typeAnnotation, this.scope)
            : UNKNOWN;
        this.scope.names.set(pattern.name as string, typed.kind === "unknown" ? value : typed);
        return;
      }
      case "ObjectPattern":
        for (const property of pattern.properties as Node[]) {
          if (property.type === "RestElement") this.bind(property.argument as Node, UNKNOWN);
          else {
            const key = property.computed ? undefined : propertyName(property.key as Node);
            this.bind(property.value as Node, key === undefined ? UNKNOWN : member(value, key));
          }
        }
        return;
      case "ArrayPattern":
        for (const element of pattern.elements as Array<Node | null>)
          if (element)
            this.bind(
              element.type === "RestElement" ? (element.argument as Node) : element,
              UNKNOWN,
            );
        return;
      case "AssignmentPattern":
        this.expression(pattern.right as Node);
        this.bind(
          pattern.left as Node,
          value.kind === "unknown" ? this.expression(pattern.right as Node) : value,
        );
        return;
      case "RestElement":
        this.bind(pattern.argument as Node, UNKNOWN);
        return;
      default:
        return;
    }
  }

  /** The value of an expression; records the calls and reads in it as sites. */
  private expression(node: Node): Ref {
    if (++this.depth > MAX_DEPTH) {
      this.depth--;
      this.truncated = true;
      return UNKNOWN;
    }
    try {
      return this.expressionInner(node);
    } finally {
      this.depth--;
    }
  }

  private expressionInner(node: Node): Ref {
    if (TRANSPARENT.has(node.type)) return this.expression(node.expression as Node);
    switch (node.type) {
      case "Literal":
        return typeof node.value === "string" ? { kind: "string", value: node.value } : UNKNOWN;
      case "TemplateLiteral": {
        const expressions = node.expressions as Node[];
        for (const expression of expressions) this.expression(expression);
        const quasis = node.quasis as Node[];
        return expressions.length === 0
          ? {
              kind: "string",
              value: String((quasis[0]!.value as { cooked: string | null }).cooked ?? ""),
            }
          : UNKNOWN;
      }
      case "Identifier": {
        const name = node.name as string;
        const bound = this.scope.lookup(name);
        if (bound) {
          // A module value read whole (`register(mod)`) is a site too: the linker sees its exports escape.
          if (
            bound.kind === "import" ||
            bound.kind === "member" ||
            bound.kind === "dynamic-import" ||
            (bound.kind === "await" && bound.value.kind === "dynamic-import")
          )
            this.site(bound, node, true);
          this.escape(bound);
          return bound;
        }
        return name === "__TAURI__" || name === "__TAURI_INTERNALS__"
          ? { kind: "global", name }
          : UNKNOWN;
      }
      case "ThisExpression":
        return { kind: "unknown" };
      case "MemberExpression": {
        const objectNode = node.object as Node;
        if (objectNode.type === "ThisExpression" && !node.computed) {
          const value = this.scope.thisScope()?.get(propertyName(node.property as Node));
          return value ?? UNKNOWN;
        }
        if (
          objectNode.type === "Identifier" &&
          ["window", "globalThis", "self"].includes(objectNode.name as string) &&
          !this.scope.lookup(objectNode.name as string)
        ) {
          const name = node.computed ? undefined : propertyName(node.property as Node);
          if (name === "__TAURI__" || name === "__TAURI_INTERNALS__")
            return { kind: "global", name };
          return UNKNOWN;
        }
        const object = this.expressionNoSite(objectNode);
        let name: string | undefined;
        if (!node.computed) name = propertyName(node.property as Node);
        else {
          const propertyNode = node.property as Node;
          const key = this.expression(propertyNode);
          if (key.kind === "string") name = key.value;
          // `windows[0]`: an element of the array.
          else if (propertyNode.type === "Literal" && typeof propertyNode.value === "number")
            return object.kind === "unknown" ? UNKNOWN : { kind: "element", of: object };
        }
        if (name === undefined) return UNKNOWN;
        const value = member(object, name);
        if (value.kind === "member") this.site(value, node, true);
        return value;
      }
      case "CallExpression":
      case "NewExpression": {
        const calleeNode = node.callee as Node;
        if (calleeNode.type === "Import") return UNKNOWN;
        const byName =
          calleeNode.type === "Identifier"
            ? this.scope.lookup(calleeNode.name as string)
            : undefined;
        let callee: Ref;
        if (byName?.kind === "function") {
          // `checkUpdate()`: a call by name, which finish() weighs with the platform check around it.
          callee = byName;
          const calls = this.calledAt.get(byName.id) ?? [];
          calls.push({ platforms: this.guard, from: this.scope.fn });
          this.calledAt.set(byName.id, calls);
        } else callee = this.expressionNoSite(calleeNode);
        // `.then(m => m.fn())` on a dynamic import: the callback's parameter is the module.
        if (
          callee.kind === "member" &&
          callee.name === "then" &&
          callee.object.kind === "dynamic-import"
        ) {
          const fn = (node.arguments as Node[])[0];
          const param = fn && FUNCTION_TYPES.has(fn.type) ? (fn.params as Node[])[0] : undefined;
          if (param) (param as GivenValue).givenValue = callee.object;
          // `.then(register)`: the module goes where the scan does not follow it.
          else if (fn && !FUNCTION_TYPES.has(fn.type)) this.site(callee.object, node, true);
        }
        // `windows.forEach((w) => w.close())`: the callback's first parameter is an element (reduce's second).
        if (callee.kind === "member" && ELEMENT_CALLBACKS.has(callee.name)) {
          const fn = (node.arguments as Node[])[0];
          const param =
            fn && FUNCTION_TYPES.has(fn.type)
              ? (fn.params as Node[])[callee.name === "reduce" ? 1 : 0]
              : undefined;
          if (param) (param as GivenValue).givenValue = { kind: "element", of: callee.object };
        }
        const args = (node.arguments as Node[]).map((arg) =>
          arg.type === "SpreadElement"
            ? (this.expression(arg.argument as Node), UNKNOWN)
            : this.expression(arg),
        );
        const ref: Ref = { kind: "call", callee, args, isNew: node.type === "NewExpression" };
        if (callee.kind !== "unknown") this.site(ref, node);
        if (callee.kind === "member" && node.type === "CallExpression") {
          if (ELEMENT_RESULTS.has(callee.name)) return { kind: "element", of: callee.object };
          if (ARRAY_RESULTS.has(callee.name)) return callee.object;
        }
        return ref;
      }
      case "ImportExpression": {
        const source = this.expression(node.source as Node);
        if (source.kind === "string") {
          this.facts.requests.push(source.value);
          const module: Ref = { kind: "dynamic-import", request: source.value };
          // Read whole unless destructured or read by member (those drop this site: expressionNoSite).
          this.site(module, node, true);
          return module;
        }
        this.facts.dynamicRequests.push(node.start + this.offset);
        return UNKNOWN;
      }
      case "AwaitExpression": {
        const argument = node.argument as Node;
        // `await import("./x")`: the await, not the import, stands for the module read whole.
        const value =
          argument.type === "ImportExpression"
            ? this.expressionNoSite(argument)
            : this.expression(argument);
        if (value.kind === "unknown") return value;
        const awaited: Ref = { kind: "await", value };
        if (value.kind === "dynamic-import") this.site(awaited, node, true);
        return awaited;
      }
      case "FunctionExpression":
      case "ArrowFunctionExpression":
        return this.functionBody(node);
      case "ClassExpression":
        this.classBody(node);
        return UNKNOWN;
      case "ObjectExpression": {
        const members = new Map<string, Ref>();
        for (const property of node.properties as Node[]) {
          if (property.type === "SpreadElement") {
            this.expression(property.argument as Node);
            continue;
          }
          const value = this.expression(property.value as Node);
          if (!property.computed) members.set(propertyName(property.key as Node), value);
          else this.expression(property.key as Node);
        }
        return { kind: "object", members };
      }
      case "AssignmentExpression": {
        const value = this.expression(node.right as Node);
        const left = node.left as Node;
        if (
          left.type === "MemberExpression" &&
          (left.object as Node).type === "ThisExpression" &&
          !left.computed
        )
          this.scope.thisScope()?.set(propertyName(left.property as Node), value);
        else if (left.type === "Identifier" && node.operator === "=") {
          // A `let` assigned later (`win = getCurrentWindow()`): the binding takes the value it is given, when it had none.
          const name = left.name as string;
          for (let scope: Scope | undefined = this.scope; scope; scope = scope.parent) {
            const bound = scope.names.get(name);
            if (bound === undefined) continue;
            if (bound.kind === "unknown") scope.names.set(name, value);
            break;
          }
        } else this.expression(left);
        return value;
      }
      case "ConditionalExpression": {
        const test = node.test as Node;
        this.expression(test);
        const split = this.guardSplit(test);
        return either(
          this.guarded(split.when, () => this.expression(node.consequent as Node)),
          this.guarded(split.otherwise, () => this.expression(node.alternate as Node)),
        );
      }
      case "LogicalExpression": {
        // `isDesktop() && win.show()`: the right side runs where the left holds (`||`: where it does not).
        const left = node.left as Node;
        const platforms =
          node.operator === "&&"
            ? this.guardSplit(left).when
            : node.operator === "||"
              ? this.guardSplit(left).otherwise
              : undefined;
        return either(
          this.expression(left),
          this.guarded(platforms, () => this.expression(node.right as Node)),
        );
      }
      case "SequenceExpression": {
        let last: Ref = UNKNOWN;
        for (const expression of node.expressions as Node[]) last = this.expression(expression);
        return last;
      }
      case "JSXIdentifier": {
        // `<Settings />`: a component the framework calls, wherever the element is rendered.
        const bound = this.scope.lookup(node.name as string);
        if (bound?.kind === "import" || bound?.kind === "member") this.site(bound, node, true);
        this.escape(bound);
        return UNKNOWN;
      }
      case "JSXAttribute": {
        const name = node.name as Node;
        if (name.type === "JSXIdentifier" && name.name === "data-tauri-drag-region")
          this.facts.dragRegions.push(node.start + this.offset);
        if (isNode(node.value)) this.children(node.value);
        return UNKNOWN;
      }
      default:
        this.children(node);
        return UNKNOWN;
    }
  }

  /** A callee or member object: its own read is not a site (the call or the outer member is). */
  private expressionNoSite(node: Node): Ref {
    const before = this.sites.length;
    const value = this.expression(node);
    // Drop the read site recorded for the node itself (the last one, when it covers the node).
    const last = this.sites[this.sites.length - 1];
    if (
      this.sites.length > before &&
      last &&
      last.reference &&
      last.start === node.start + this.offset &&
      last.end === node.end + this.offset
    )
      this.sites.pop();
    return value;
  }

  private children(node: Node): void {
    if (++this.depth > MAX_DEPTH) {
      this.depth--;
      this.truncated = true;
      return;
    }
    for (const key in node) {
      if (
        key === "type" ||
        key === "start" ||
        key === "end" ||
        key === "typeAnnotation" ||
        key === "returnType" ||
        key === "typeArguments" ||
        key === "typeParameters"
      )
        continue;
      const value = node[key];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) this.child(item);
      } else if (isNode(value)) this.child(value);
    }
    this.depth--;
  }

  private child(node: Node): void {
    if (
      node.type.endsWith("Statement") ||
      node.type.endsWith("Declaration") ||
      node.type === "SwitchCase" ||
      node.type === "CatchClause"
    ) {
      if (
        node.type === "BlockStatement" ||
        node.type === "ForStatement" ||
        node.type === "ForInStatement" ||
        node.type === "ForOfStatement"
      ) {
        const outer = this.scope;
        this.scope = new Scope(outer, outer.fn);
        if (node.type === "BlockStatement")
          for (const statement of node.body as Node[]) this.hoist(statement);
        this.statement(node);
        this.scope = outer;
      } else if (node.type === "CatchClause") {
        const outer = this.scope;
        this.scope = new Scope(outer, outer.fn);
        if (isNode(node.param)) this.bind(node.param, UNKNOWN);
        if (isNode(node.body)) this.child(node.body);
        this.scope = outer;
      } else this.statement(node);
    } else if (node.type === "VariableDeclarator") {
      this.bind(node.id as Node, isNode(node.init) ? this.expression(node.init) : UNKNOWN);
    } else this.expression(node);
  }
}

/** The value of `object.name`, folding constant objects (`COMMANDS.SAVE`). */
function member(object: Ref, name: string): Ref {
  if (object.kind === "object") return object.members.get(name) ?? UNKNOWN;
  if (object.kind === "unknown" || object.kind === "string") return UNKNOWN;
  return { kind: "member", object, name };
}

/** One of two values: the same value, else unknown (a strict subset keeps the scan from guessing). */
function either(a: Ref, b: Ref): Ref {
  if (a.kind === "unknown") return b.kind === "string" ? UNKNOWN : b;
  if (b.kind === "unknown") return a.kind === "string" ? UNKNOWN : a;
  return JSON.stringify(a) === JSON.stringify(b)
    ? a
    : a.kind === "string" || b.kind === "string"
      ? UNKNOWN
      : a;
}

/** `win: Window`, `win: Window | null`, `Promise<Store>`-free: the instance a declared type names. */
function typedRef(annotation: unknown, scope: Scope): Ref {
  if (!isNode(annotation)) return UNKNOWN;
  let type =
    annotation.type === "TSTypeAnnotation" ? (annotation.typeAnnotation as Node) : annotation;
  if (type.type === "TSUnionType")
    type = (type.types as Node[]).find((t) => t.type === "TSTypeReference") ?? type;
  if (type.type !== "TSTypeReference") return UNKNOWN;
  const typeName = type.typeName as Node;
  if (typeName.type === "Identifier") {
    const bound = scope.lookup(typeName.name as string);
    return bound && (bound.kind === "import" || bound.kind === "member")
      ? { kind: "typed", type: bound }
      : UNKNOWN;
  }
  if (typeName.type === "TSQualifiedName" && (typeName.left as Node).type === "Identifier") {
    const bound = scope.lookup((typeName.left as Node).name as string);
    return bound && bound.kind === "import"
      ? { kind: "typed", type: member(bound, (typeName.right as Node).name as string) }
      : UNKNOWN;
  }
  return UNKNOWN;
}

function propertyName(key: Node): string {
  if (key.type === "Identifier" || key.type === "PrivateIdentifier") return key.name as string;
  return String(key.value);
}

function moduleExportName(node: Node): string {
  return node.type === "Identifier" ? (node.name as string) : String(node.value);
}

function declaredNames(declaration: Node): string[] {
  if (declaration.type === "VariableDeclaration")
    return (declaration.declarations as Node[]).flatMap((d) => patternNames(d.id as Node));
  if (isNode(declaration.id) && declaration.id.type === "Identifier")
    return [declaration.id.name as string];
  return [];
}

function patternNames(pattern: Node): string[] {
  switch (pattern.type) {
    case "Identifier":
      return [pattern.name as string];
    case "ObjectPattern":
      return (pattern.properties as Node[]).flatMap((p) =>
        patternNames((p.type === "RestElement" ? p.argument : p.value) as Node),
      );
    case "ArrayPattern":
      return (pattern.elements as Array<Node | null>).flatMap((e) =>
        e ? patternNames(e.type === "RestElement" ? (e.argument as Node) : e) : [],
      );
    case "AssignmentPattern":
      return patternNames(pattern.left as Node);
    default:
      return [];
  }
}

/** The platforms both sets allow; undefined (every platform) when neither restricts. */
export function meetPlatforms(
  a: readonly Platform[] | undefined,
  b: readonly Platform[] | undefined,
): readonly Platform[] | undefined {
  if (!a) return b;
  if (!b) return a;
  return a.filter((platform) => b.includes(platform));
}

/** The platforms either set allows; undefined (every platform) when one does not restrict. */
function joinPlatforms(
  a: readonly Platform[] | undefined,
  b: readonly Platform[] | undefined,
): readonly Platform[] | undefined {
  if (!a || !b) return undefined;
  return ALL_PLATFORMS.filter((platform) => a.includes(platform) || b.includes(platform));
}

/** Names of platform checks (`isDesktop()`, `isMobile.value`, `IS_MAC`, `isWindows10()`): the platforms where they hold. */
const CHECK_NAME =
  /^(?:is|IS)_?(desktop|mobile|android|ios|mac|macos|darwin|osx|windows|win|win10|win11|windows10|windows11|linux)$/i;
/** Values of `platform()` / `type()` / `navigator.platform`-like checks. */
const PLATFORM_VALUES: Record<string, readonly Platform[]> = {
  desktop: DESKTOP,
  mobile: MOBILE,
  android: ["android"],
  ios: ["iOS"],
  mac: ["macOS"],
  macos: ["macOS"],
  darwin: ["macOS"],
  osx: ["macOS"],
  windows: ["windows"],
  win: ["windows"],
  win32: ["windows"],
  win10: ["windows"],
  win11: ["windows"],
  windows10: ["windows"],
  windows11: ["windows"],
  linux: ["linux"],
};
/** A name that holds the platform (`platform()`, `osType`, `os.type()`, `currentPlatform`), compared with a literal. */
const PLATFORM_HOLDER = /platform|os_?type|^os$|^type$/i;

/** Where a condition can hold (`when`) and where it can fail (`otherwise`); undefined: on every platform. */
interface GuardSplit {
  when?: readonly Platform[];
  otherwise?: readonly Platform[];
}

const exactly = (platforms: readonly Platform[] | undefined): GuardSplit =>
  platforms
    ? {
        when: platforms,
        otherwise: ALL_PLATFORMS.filter((platform) => !platforms.includes(platform)),
      }
    : {};

/**
 * Where a condition can hold and where it can fail, when it is made of platform checks the code spells
 * plainly: `isDesktop()`, `!isMobile`, `isMac.value`, `platform() === "windows"`, `osType !== "android"`,
 * a constant that holds one (`const canScan = isMobile`), and `&&`/`||` of those with any other condition. `ready && isWindows()` holds on Windows only but can fail
 * everywhere, so its `else` runs on every platform; a condition that is no platform check splits nothing.
 */
function guardSplit(
  node: Node,
  constants: (name: string) => GuardSplit | undefined,
  depth = 0,
): GuardSplit {
  if (depth > 16) return {};
  if (TRANSPARENT.has(node.type)) return guardSplit(node.expression as Node, constants, depth + 1);
  switch (node.type) {
    case "UnaryExpression": {
      if (node.operator !== "!") return {};
      const inner = guardSplit(node.argument as Node, constants, depth + 1);
      return {
        ...(inner.otherwise ? { when: inner.otherwise } : {}),
        ...(inner.when ? { otherwise: inner.when } : {}),
      };
    }
    case "AwaitExpression":
      return guardSplit(node.argument as Node, constants, depth + 1);
    case "CallExpression":
      return exactly(
        (node.arguments as Node[]).length === 0
          ? checkNamed(node.callee as Node)
          : includesCheck(node),
      );
    case "Identifier": {
      const named = checkNamed(node);
      return named ? exactly(named) : (constants(node.name as string) ?? {});
    }
    case "MemberExpression":
      return exactly(checkNamed(node));
    case "LogicalExpression": {
      const left = guardSplit(node.left as Node, constants, depth + 1);
      const right = guardSplit(node.right as Node, constants, depth + 1);
      const split =
        node.operator === "&&"
          ? {
              when: meetPlatforms(left.when, right.when),
              otherwise: joinPlatforms(left.otherwise, right.otherwise),
            }
          : node.operator === "||"
            ? {
                when: joinPlatforms(left.when, right.when),
                otherwise: meetPlatforms(left.otherwise, right.otherwise),
              }
            : {};
      return {
        ...(split.when ? { when: split.when } : {}),
        ...(split.otherwise ? { otherwise: split.otherwise } : {}),
      };
    }
    case "BinaryExpression": {
      const equal = node.operator === "===" || node.operator === "==";
      if (!equal && node.operator !== "!==" && node.operator !== "!=") return {};
      const [holder, literal] = isStringLiteral(node.right as Node)
        ? [node.left as Node, node.right as Node]
        : [node.right as Node, node.left as Node];
      if (!isStringLiteral(literal) || !PLATFORM_HOLDER.test(lastName(holder) ?? "")) return {};
      const platforms = PLATFORM_VALUES[String(literal.value).toLowerCase()];
      if (!platforms) return {};
      const split = exactly(platforms);
      return equal
        ? split
        : { ...(split.otherwise ? { when: split.otherwise } : {}), otherwise: platforms };
    }
    default:
      return {};
  }
}

/** `["macos", "windows", "linux"].includes(OS_TYPE)` (readest's updater): where one of the listed platforms is. */
function includesCheck(node: Node): readonly Platform[] | undefined {
  const callee = node.callee as Node;
  const args = node.arguments as Node[];
  if (
    callee.type !== "MemberExpression" ||
    callee.computed ||
    lastName(callee) !== "includes" ||
    args.length !== 1
  )
    return undefined;
  const list = callee.object as Node;
  if (list.type !== "ArrayExpression" || !PLATFORM_HOLDER.test(lastName(args[0]!) ?? ""))
    return undefined;
  const platforms = new Set<Platform>();
  for (const element of list.elements as Array<Node | null>) {
    const values =
      element && isStringLiteral(element)
        ? PLATFORM_VALUES[element.value.toLowerCase()]
        : undefined;
    if (!values) return undefined;
    for (const platform of values) platforms.add(platform);
  }
  return ALL_PLATFORMS.filter((platform) => platforms.has(platform));
}

function checkNamed(node: Node): readonly Platform[] | undefined {
  // `isMobile.value` (a Vue ref) names the check by its object.
  const name =
    node.type === "MemberExpression" && lastName(node) === "value"
      ? lastName(node.object as Node)
      : lastName(node);
  const match = name === undefined ? null : CHECK_NAME.exec(name);
  return match ? PLATFORM_VALUES[match[1]!.toLowerCase()] : undefined;
}

function lastName(node: Node): string | undefined {
  if (TRANSPARENT.has(node.type)) return lastName(node.expression as Node);
  if (node.type === "Identifier") return node.name as string;
  if (node.type === "CallExpression") return lastName(node.callee as Node);
  if (node.type === "MemberExpression" && !node.computed)
    return propertyName(node.property as Node);
  return undefined;
}

function isStringLiteral(node: Node): node is Node & { value: string } {
  return node.type === "Literal" && typeof node.value === "string";
}

/**
 * `const mod = await import("./x")`, `const { fn } = await import("./x")`: the module is bound, and its
 * reads are sites of their own; a rest element (`...others`) takes exports the scan does not follow.
 */
function bindsModule(declarator: Node): boolean {
  const init = declarator.init as Node;
  const id = declarator.id as Node;
  const importing =
    init.type === "ImportExpression" ||
    (init.type === "AwaitExpression" && (init.argument as Node).type === "ImportExpression");
  return (
    importing &&
    (id.type === "Identifier" ||
      (id.type === "ObjectPattern" &&
        (id.properties as Node[]).every((property) => property.type !== "RestElement")))
  );
}

/** Whether a statement always leaves the block (`return`, `throw`, or a block ending with one). */
function exits(node: Node): boolean {
  if (node.type === "ReturnStatement" || node.type === "ThrowStatement") return true;
  if (node.type === "BlockStatement") {
    const body = node.body as Node[];
    const last = body[body.length - 1];
    return last !== undefined && exits(last);
  }
  return false;
}
