// Which IPC commands each export of a published Tauri JS package invokes, read from the package's own
// dist JavaScript (and its .d.ts for what a function returns), with the oxc parser. Used by
// scripts/build-js-api-map.mjs; the model is described in data/js-api-map.md.
//
// A function's commands are strings; `{n}` in one stands for the function's n-th argument (0-based), so
// `invoke` itself is `{0}` and `addPluginListener` is `plugin:{0}|register_listener`. A call passes its
// string arguments into the callee's commands; what cannot be known statically becomes `{?}`.
import fs from "node:fs";
import path from "node:path";
import { parseSync } from "oxc-parser";

const UNKNOWN = "{?}";
const MAX_VARIANTS = 16;
const GUARD = /^!\{(\d+)\}\.(\w+)\|/;

function walk(node, visit) {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (typeof node.type !== "string") return;
  if (visit(node) === false) return;
  for (const key in node) {
    if (key === "type" || key === "start" || key === "end" || key === "parent") continue;
    const value = node[key];
    if (value && typeof value === "object") walk(value, visit);
  }
}

function keyName(node) {
  if (!node) return undefined;
  if (node.type === "Identifier") return node.name;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  return undefined;
}

function isFunctionNode(node) {
  return (
    node &&
    (node.type === "FunctionDeclaration" ||
      node.type === "FunctionExpression" ||
      node.type === "ArrowFunctionExpression")
  );
}

/** `__TAURI_INTERNALS__.invoke` or `window.__TAURI_INTERNALS__.invoke`: the one primitive every command goes through. */
function isPrimitiveInvoke(callee) {
  if (
    callee?.type !== "MemberExpression" ||
    keyName(callee.property) !== "invoke" ||
    callee.computed
  )
    return false;
  const object = callee.object;
  if (object.type === "Identifier") return object.name === "__TAURI_INTERNALS__";
  return object.type === "MemberExpression" && keyName(object.property) === "__TAURI_INTERNALS__";
}

/** `window.Notification.requestPermission` → "Notification.requestPermission"; `alert` → "alert". */
function globalName(callee) {
  const names = [];
  let node = callee;
  while (node?.type === "MemberExpression" && !node.computed) {
    names.unshift(keyName(node.property));
    node = node.object;
  }
  if (node?.type !== "Identifier") return undefined;
  if (node.name !== "window" && node.name !== "globalThis") names.unshift(node.name);
  return names.join(".");
}

function cartesian(parts) {
  let results = [""];
  for (const options of parts) {
    const next = [];
    for (const prefix of results) for (const option of options) next.push(prefix + option);
    results = next.slice(0, MAX_VARIANTS);
  }
  return results;
}

/** Replaces `{n}` in a callee's command by what the caller passes as argument n. */
function substitute(command, argumentValues) {
  const parts = [];
  let last = 0;
  for (const match of command.matchAll(/\{(\d+|\?)\}/g)) {
    parts.push([command.slice(last, match.index)]);
    const index = match[1] === "?" ? -1 : Number(match[1]);
    parts.push(index >= 0 && argumentValues[index] ? argumentValues[index] : [UNKNOWN]);
    last = match.index + match[0].length;
  }
  parts.push([command.slice(last)]);
  return cartesian(parts);
}

function unwrapType(type) {
  if (!type) return undefined;
  if (type.type === "TSTypeAnnotation") return unwrapType(type.typeAnnotation);
  if (type.type === "TSUnionType") {
    for (const member of type.types) {
      const name = unwrapType(member);
      if (name) return name;
    }
    return undefined;
  }
  if (type.type !== "TSTypeReference" || type.typeName.type !== "Identifier") return undefined;
  const name = type.typeName.name;
  if (name === "Promise" && type.typeArguments?.params?.length === 1)
    return unwrapType(type.typeArguments.params[0]);
  return name;
}

function parseFile(file, lang) {
  const source = fs.readFileSync(file, "utf8");
  const result = parseSync(file, source, { lang, sourceType: "module" });
  const fatal = result.errors.filter(
    (error) => error.severity === "Error" || error.severity === undefined,
  );
  if (fatal.length > 0 && result.program.body.length === 0)
    throw new Error(`${file}: ${fatal[0].message}`);
  return result.program;
}

/** Declared return types from a module's .d.ts: "f" → "Window", "Database.load" → "Database", "Window#outerSize" → "PhysicalSize". */
function declaredReturns(dtsFile) {
  const returns = new Map();
  if (!fs.existsSync(dtsFile)) return returns;
  const program = parseFile(dtsFile, "ts");
  const record = (name, type) => {
    const returned = unwrapType(type);
    if (returned && !returns.has(name)) returns.set(name, returned);
  };
  for (let statement of program.body) {
    if (
      (statement.type === "ExportNamedDeclaration" ||
        statement.type === "ExportDefaultDeclaration") &&
      statement.declaration
    )
      statement = statement.declaration;
    if (
      (statement.type === "TSDeclareFunction" || statement.type === "FunctionDeclaration") &&
      statement.id
    )
      record(statement.id.name, statement.returnType);
    if (statement.type === "ClassDeclaration" && statement.id) {
      for (const member of statement.body.body) {
        const name = keyName(member.key);
        if (!name || member.key.type === "PrivateIdentifier") continue;
        if (member.type === "MethodDefinition" || member.type === "TSAbstractMethodDefinition") {
          if (member.kind === "constructor") continue;
          record(
            `${statement.id.name}${member.static ? "." : "#"}${name}`,
            member.value.returnType,
          );
        }
      }
    }
  }
  return returns;
}

class ModuleInfo {
  constructor(analysis, file) {
    this.analysis = analysis;
    this.file = file;
    this.program = parseFile(file, "js");
    /** local name → { kind, node, from?, imported? } */
    this.bindings = new Map();
    /** exported name → { local } | { from, imported } */
    this.exports = new Map();
    this.starExports = [];
    /** class local name → classes mixed into it (applyMixins(Derived, [A, B])) */
    this.mixins = new Map();
    this.returns = declaredReturns(file.replace(/\.js$/, ".d.ts"));
    this.collect();
  }

  collect() {
    for (const statement of this.program.body) {
      if (statement.type === "ImportDeclaration") {
        for (const specifier of statement.specifiers) {
          const imported =
            specifier.type === "ImportNamespaceSpecifier"
              ? "*"
              : specifier.type === "ImportDefaultSpecifier"
                ? "default"
                : keyName(specifier.imported);
          this.bindings.set(specifier.local.name, {
            kind: "import",
            from: statement.source.value,
            imported,
          });
        }
        continue;
      }
      if (statement.type === "ExportNamedDeclaration") {
        if (statement.declaration) {
          this.declare(statement.declaration);
          for (const name of this.declaredNames(statement.declaration))
            this.exports.set(name, { local: name });
        }
        for (const specifier of statement.specifiers ?? []) {
          const exported = keyName(specifier.exported);
          const local = keyName(specifier.local);
          if (statement.source)
            this.exports.set(exported, { from: statement.source.value, imported: local });
          else this.exports.set(exported, { local });
        }
        continue;
      }
      if (statement.type === "ExportAllDeclaration") {
        if (statement.exported)
          this.exports.set(keyName(statement.exported), {
            from: statement.source.value,
            imported: "*",
          });
        else this.starExports.push(statement.source.value);
        continue;
      }
      if (statement.type === "ExportDefaultDeclaration") {
        const declaration = statement.declaration;
        if (
          (declaration.type === "FunctionDeclaration" || declaration.type === "ClassDeclaration") &&
          declaration.id
        ) {
          this.declare(declaration);
          this.exports.set("default", { local: declaration.id.name });
        } else if (declaration.type === "Identifier")
          this.exports.set("default", { local: declaration.name });
        continue;
      }
      this.declare(statement);
      const call = statement.type === "ExpressionStatement" ? statement.expression : undefined;
      if (
        call?.type === "CallExpression" &&
        call.callee.type === "Identifier" &&
        call.callee.name === "applyMixins" &&
        call.arguments[0]?.type === "Identifier"
      ) {
        const list = call.arguments[1];
        const mixed = list?.type === "ArrayExpression" ? list.elements : [list];
        this.mixins.set(
          call.arguments[0].name,
          mixed.filter((element) => element?.type === "Identifier").map((element) => element.name),
        );
      }
    }
  }

  declaredNames(declaration) {
    if (declaration.type === "VariableDeclaration")
      return declaration.declarations
        .filter((d) => d.id.type === "Identifier")
        .map((d) => d.id.name);
    return declaration.id ? [declaration.id.name] : [];
  }

  declare(statement) {
    if (statement.type === "FunctionDeclaration" && statement.id)
      this.bindings.set(statement.id.name, { kind: "function", node: statement });
    else if (statement.type === "ClassDeclaration" && statement.id)
      this.bindings.set(statement.id.name, {
        kind: "class",
        node: statement,
        name: statement.id.name,
      });
    else if (statement.type === "VariableDeclaration") {
      for (const declarator of statement.declarations) {
        if (declarator.id.type !== "Identifier") continue;
        const init = declarator.init;
        if (isFunctionNode(init))
          this.bindings.set(declarator.id.name, { kind: "function", node: init });
        else if (init?.type === "ClassExpression")
          this.bindings.set(declarator.id.name, {
            kind: "class",
            node: init,
            name: declarator.id.name,
          });
        else
          this.bindings.set(declarator.id.name, {
            kind: "value",
            node: init,
            constant: statement.kind === "const",
          });
      }
    }
  }
}

/**
 * One package on disk (an extracted npm tarball). `foreign(specifier)` answers for the other packages it
 * imports (`@tauri-apps/api/core`): `{ member(name) → { c: string[], r? } | undefined, className(name) }`.
 */
export class PackageAnalysis {
  constructor(root, foreign, globals = new Map()) {
    this.root = root;
    this.foreign = foreign;
    /** "new Notification", "alert" → the commands of the injected script that replaces that web API. */
    this.globals = globals;
    this.modules = new Map();
    this.summaries = new Map();
  }

  module(file) {
    let info = this.modules.get(file);
    if (!info) {
      info = new ModuleInfo(this, file);
      this.modules.set(file, info);
    }
    return info;
  }

  /** A module specifier as seen from a module: a file of this package, or a foreign specifier. */
  target(fromModule, specifier) {
    if (specifier.startsWith(".")) {
      let file = path.resolve(path.dirname(fromModule.file), specifier);
      if (!file.endsWith(".js")) file += ".js";
      return fs.existsSync(file) ? { file } : undefined;
    }
    return { specifier };
  }

  /** What a name means in a module: a function, a class, a value, a namespace, or a foreign export. */
  resolve(moduleInfo, name, seen = new Set()) {
    const binding = moduleInfo.bindings.get(name);
    if (!binding) return undefined;
    if (binding.kind !== "import") return { ...binding, module: moduleInfo };
    return this.resolveImport(moduleInfo, binding.from, binding.imported, seen);
  }

  resolveImport(moduleInfo, from, imported, seen) {
    const target = this.target(moduleInfo, from);
    if (!target) return undefined;
    if (target.specifier)
      return imported === "*"
        ? { kind: "foreignNamespace", specifier: target.specifier }
        : { kind: "foreign", specifier: target.specifier, name: imported };
    const other = this.module(target.file);
    if (imported === "*") return { kind: "namespace", module: other };
    return this.resolveExport(other, imported, seen);
  }

  resolveExport(moduleInfo, name, seen = new Set()) {
    const key = `${moduleInfo.file}\0${name}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const entry = moduleInfo.exports.get(name);
    if (entry?.local) return this.resolve(moduleInfo, entry.local, seen);
    if (entry?.from) return this.resolveImport(moduleInfo, entry.from, entry.imported, seen);
    for (const from of moduleInfo.starExports) {
      const found = this.resolveImport(moduleInfo, from, name, seen);
      if (found) return found;
    }
    return undefined;
  }

  exportNames(moduleInfo, seen = new Set()) {
    if (seen.has(moduleInfo.file)) return [];
    seen.add(moduleInfo.file);
    const names = [...moduleInfo.exports.keys()];
    for (const from of moduleInfo.starExports) {
      const target = this.target(moduleInfo, from);
      if (target?.file)
        names.push(
          ...this.exportNames(this.module(target.file), seen).filter((name) => name !== "default"),
        );
    }
    return [...new Set(names)];
  }

  // --- summaries -------------------------------------------------------------------------------------

  /** The commands a function (or method) node may invoke, with `{n}` for its own arguments. */
  summarize(node, moduleInfo, classDef) {
    const cached = this.summaries.get(node);
    if (cached) return cached;
    const summary = new Set();
    this.summaries.set(node, summary); // a recursive call adds nothing more
    const params = new Map();
    (node.params ?? []).forEach((param, index) => {
      const id = param.type === "AssignmentPattern" ? param.left : param;
      if (id.type === "Identifier") params.set(id.name, index);
    });
    const locals = new Map();
    walk(node.body, (child) => {
      if (child.type === "VariableDeclarator" && child.id.type === "Identifier" && child.init)
        locals.set(child.id.name, child.init);
    });
    const scope = { params, locals, moduleInfo, classDef, evaluating: new Set() };
    const visit = (guard) => (child) => {
      if (child.type === "IfStatement") {
        const guarded = this.skipGuard(child.test, scope);
        if (guarded) {
          walk(child.test, visit(guard));
          walk(child.consequent, visit(guard + guarded));
          walk(child.alternate, visit(guard));
          return false;
        }
      }
      if (child.type === "CallExpression" || child.type === "NewExpression")
        for (const command of this.callCommands(child, scope)) summary.add(guard + command);
      // `this.store` where store is a getter runs it (LazyStore's getter loads the store).
      if (
        child.type === "MemberExpression" &&
        child.object.type === "ThisExpression" &&
        !child.computed &&
        scope.classDef
      ) {
        const getter = this.getterOf(scope.classDef, keyName(child.property));
        if (getter)
          for (const command of this.summarize(
            getter.value,
            getter.classDef.module,
            getter.classDef,
          ))
            summary.add(guard + command);
      }
      return true;
    };
    walk(node.body, visit(""));
    return summary;
  }

  /**
   * `if (!options?.skip)` on an argument: what the branch invokes is guarded by that option (the
   * window classes' constructors create a window unless told `{ skip: true }`, which getCurrentWindow()
   * does). The guard is a `!{n}.key|` prefix that a call passing `{ key: true }` drops.
   */
  skipGuard(test, scope) {
    if (test.type !== "UnaryExpression" || test.operator !== "!") return undefined;
    let member = test.argument;
    // Down-levelled optional chains: `!(options === null || options === void 0 ? void 0 : options.skip)`.
    for (let depth = 0; depth < 4; depth++) {
      if (member.type === "ParenthesizedExpression" || member.type === "ChainExpression")
        member = member.expression;
      else if (member.type === "ConditionalExpression") member = member.alternate;
      else if (member.type === "LogicalExpression" && member.operator === "&&")
        member = member.right;
    }
    if (
      member.type !== "MemberExpression" ||
      member.computed ||
      member.object.type !== "Identifier"
    )
      return undefined;
    const index = scope.params.get(member.object.name);
    const key = keyName(member.property);
    return index === undefined || !key ? undefined : `!{${index}}.${key}|`;
  }

  /** Resolves a callee's guards against the call's arguments: dropped, kept (on the caller's own argument) or lifted. */
  applyGuards(command, call, scope) {
    let rest = command;
    let kept = "";
    for (let match = GUARD.exec(rest); match; match = GUARD.exec(rest)) {
      rest = rest.slice(match[0].length);
      const argument = call.arguments[Number(match[1])];
      if (argument?.type === "ObjectExpression") {
        const property = argument.properties.find(
          (p) => p.type === "Property" && keyName(p.key) === match[2],
        );
        if (property?.value.type === "Literal" && property.value.value === true) return undefined;
      } else if (argument?.type === "Identifier" && scope.params.has(argument.name))
        kept += `!{${scope.params.get(argument.name)}}.${match[2]}|`;
    }
    return { kept, rest };
  }

  /** The values a string expression may have, `{n}` for an argument, or undefined when unknown. */
  strings(expression, scope) {
    if (!expression) return undefined;
    switch (expression.type) {
      case "Literal":
        return typeof expression.value === "string"
          ? [expression.value.replace(/[{}]/g, "")]
          : undefined;
      case "TemplateLiteral": {
        const parts = [];
        expression.quasis.forEach((quasi, index) => {
          parts.push([(quasi.value.cooked ?? quasi.value.raw).replace(/[{}]/g, "")]);
          if (index < expression.expressions.length)
            parts.push(this.strings(expression.expressions[index], scope) ?? [UNKNOWN]);
        });
        return cartesian(parts);
      }
      case "Identifier": {
        if (scope.params.has(expression.name)) return [`{${scope.params.get(expression.name)}}`];
        if (scope.evaluating.has(expression.name)) return undefined;
        const init =
          scope.locals.get(expression.name) ??
          (scope.moduleInfo.bindings.get(expression.name)?.constant
            ? scope.moduleInfo.bindings.get(expression.name).node
            : undefined);
        if (!init) return undefined;
        scope.evaluating.add(expression.name);
        const values = this.strings(init, scope);
        scope.evaluating.delete(expression.name);
        return values;
      }
      case "ConditionalExpression":
      case "LogicalExpression": {
        const branches =
          expression.type === "ConditionalExpression"
            ? [expression.consequent, expression.alternate]
            : [expression.left, expression.right];
        const values = branches.map((branch) => this.strings(branch, scope));
        if (values.some((value) => !value)) return undefined;
        return [...new Set(values.flat())].slice(0, MAX_VARIANTS);
      }
      case "BinaryExpression": {
        if (expression.operator !== "+") return undefined;
        const left = this.strings(expression.left, scope);
        const right = this.strings(expression.right, scope);
        return left && right ? cartesian([left, right]) : undefined;
      }
      default:
        return undefined;
    }
  }

  callCommands(call, scope) {
    const callee = call.callee;
    if (isPrimitiveInvoke(callee)) return this.strings(call.arguments[0], scope) ?? [UNKNOWN];
    // A web API an injected script replaces: the notification plugin's sendNotification() is `new window.Notification(...)`.
    const bound =
      callee.type === "Identifier" &&
      (scope.params.has(callee.name) ||
        scope.locals.has(callee.name) ||
        scope.moduleInfo.bindings.has(callee.name));
    const global = bound
      ? undefined
      : this.globals.get(
          `${call.type === "NewExpression" ? "new " : ""}${globalName(callee) ?? ""}`,
        );
    if (global) return global;
    const target = this.calleeSummary(call, scope);
    if (!target || target.size === 0) return [];
    const argumentValues = call.arguments.map((argument) =>
      argument.type === "SpreadElement" ? undefined : this.strings(argument, scope),
    );
    return [...target].flatMap((command) => {
      const guarded = this.applyGuards(command, call, scope);
      return guarded
        ? substitute(guarded.rest, argumentValues).map((value) => guarded.kept + value)
        : [];
    });
  }

  calleeSummary(call, scope) {
    const callee = call.callee;
    const isNew = call.type === "NewExpression";
    if (callee.type === "Super")
      return scope.classDef ? this.constructorSummary(this.baseOf(scope.classDef)) : undefined;
    if (callee.type === "Identifier") {
      if (scope.params.has(callee.name) || scope.locals.has(callee.name)) return undefined;
      const definition = this.resolve(scope.moduleInfo, callee.name);
      if (!definition) return undefined;
      if (definition.kind === "class") return this.constructorSummary(definition);
      if (definition.kind === "function" && !isNew)
        return this.summarize(definition.node, definition.module);
      if (definition.kind === "foreign")
        return this.foreignSummary(definition.specifier, definition.name);
      return undefined;
    }
    if (callee.type !== "MemberExpression" || callee.computed) return undefined;
    const member = keyName(callee.property);
    if (!member) return undefined;
    const object = callee.object;
    if (object.type === "ThisExpression")
      return scope.classDef ? this.memberSummary(scope.classDef, member, false) : undefined;
    if (object.type === "Super") {
      const base = scope.classDef && this.baseOf(scope.classDef);
      return base ? this.memberSummary(base, member, false) : undefined;
    }
    if (object.type !== "Identifier" && object.type !== "ThisExpression") {
      // `(await this.store).set(...)`, `(await open(path)).write(...)`: a value of a known class.
      const classDef = this.classOfValue(object, scope);
      return classDef ? this.memberSummary(classDef, member, false) : undefined;
    }
    if (object.type === "Identifier") {
      if (scope.locals.has(object.name)) {
        const classDef = this.classOfValue(scope.locals.get(object.name), scope);
        return classDef ? this.memberSummary(classDef, member, false) : undefined;
      }
      if (scope.params.has(object.name)) return undefined;
      const definition = this.resolve(scope.moduleInfo, object.name);
      if (definition?.kind === "class") return this.memberSummary(definition, member, true);
      if (definition?.kind === "namespace") {
        const inner = this.resolveExport(definition.module, member);
        if (inner?.kind === "function") return this.summarize(inner.node, inner.module);
        if (inner?.kind === "foreign") return this.foreignSummary(inner.specifier, inner.name);
      }
      if (definition?.kind === "foreignNamespace")
        return this.foreignSummary(definition.specifier, member);
      if (definition?.kind === "foreign")
        return this.foreignSummary(definition.specifier, `${definition.name}.${member}`);
    }
    return undefined;
  }

  /** The class of a local's value: `new C()`, or `await f()` where the .d.ts says f returns a C (writeFile's `const file = await open(...)`). */
  classOfValue(init, scope, depth = 0) {
    let value = init;
    while (value?.type === "AwaitExpression" || value?.type === "ParenthesizedExpression")
      value = value.type === "AwaitExpression" ? value.argument : value.expression;
    if (depth > 4) return undefined;
    if (value?.type === "Identifier" && scope.locals.has(value.name))
      return this.classOfValue(scope.locals.get(value.name), scope, depth + 1);
    if (
      value?.type === "MemberExpression" &&
      value.object.type === "ThisExpression" &&
      !value.computed &&
      scope.classDef
    ) {
      return this.classOfThisMember(scope.classDef, keyName(value.property), depth);
    }
    if (
      value?.type === "CallExpression" &&
      value.callee.type === "MemberExpression" &&
      value.callee.object.type === "ThisExpression" &&
      scope.classDef
    ) {
      return this.classNamed(
        this.declaredReturn(scope.classDef, `#${keyName(value.callee.property)}`),
        scope.classDef.module,
      );
    }
    if (value?.type === "NewExpression" && value.callee.type === "Identifier") {
      const definition = this.resolve(scope.moduleInfo, value.callee.name);
      return definition?.kind === "class" ? definition : undefined;
    }
    if (value?.type === "CallExpression" && value.callee.type === "Identifier") {
      const definition = this.resolve(scope.moduleInfo, value.callee.name);
      if (definition?.kind !== "function") return undefined;
      const returned = definition.module.returns.get(
        this.localNameOf(definition) ?? value.callee.name,
      );
      const classDef = returned ? this.resolve(definition.module, returned) : undefined;
      return classDef?.kind === "class" ? classDef : undefined;
    }
    return undefined;
  }

  /**
   * The class of `this.<name>`: its declared type, else what a getter of that name returns, else what
   * the class assigns to `this.<name>` (LazyStore: `get store()` returns `this._store = load(...)`).
   */
  classOfThisMember(classDef, name, depth) {
    const declared = this.classNamed(this.declaredReturn(classDef, `#${name}`), classDef.module);
    if (declared || depth > 4) return declared;
    const values = [];
    for (const member of this.classMembers(classDef).values()) {
      const fn = member.type === "MethodDefinition" ? member.value : undefined;
      if (!fn?.body) continue;
      const isGetter = member.kind === "get" && keyName(member.key) === name;
      walk(fn.body, (child) => {
        if (isGetter && child.type === "ReturnStatement" && child.argument)
          values.push([child.argument, fn]);
        if (
          child.type === "AssignmentExpression" &&
          child.left.type === "MemberExpression" &&
          child.left.object.type === "ThisExpression" &&
          keyName(child.left.property) === name
        )
          values.push([child.right, fn]);
      });
    }
    for (const [value, fn] of values) {
      const locals = new Map();
      walk(fn.body, (child) => {
        if (child.type === "VariableDeclarator" && child.id.type === "Identifier" && child.init)
          locals.set(child.id.name, child.init);
      });
      const found = this.classOfValue(
        value,
        { params: new Map(), locals, moduleInfo: classDef.module, classDef, evaluating: new Set() },
        depth + 1,
      );
      if (found) return found;
    }
    return undefined;
  }

  classNamed(name, moduleInfo) {
    const definition = name ? this.resolve(moduleInfo, name) : undefined;
    return definition?.kind === "class" ? definition : undefined;
  }

  /** A getter of a class (own or inherited): the node and the class that defines it. */
  getterOf(classDef, name, depth = 0) {
    if (!classDef || classDef.foreign || !name || depth > 8) return undefined;
    const member = this.classMembers(classDef).get(`#${name}`);
    if (member)
      return member.type === "MethodDefinition" && member.kind === "get"
        ? { value: member.value, classDef }
        : undefined;
    return this.getterOf(this.baseOf(classDef), name, depth + 1);
  }

  foreignSummary(specifier, name) {
    const answer = this.foreign(specifier)?.member(name);
    return answer ? new Set(answer.c) : undefined;
  }

  classMembers(classDef) {
    const members = new Map();
    for (const member of classDef.node.body.body) {
      if (member.key?.type === "PrivateIdentifier") continue;
      const name =
        member.type === "MethodDefinition" && member.kind === "constructor"
          ? "constructor"
          : keyName(member.key);
      if (!name) continue;
      members.set(`${member.static ? "." : "#"}${name}`, member);
    }
    return members;
  }

  /** The base class (a definition of this package, or `{ foreign, name }`), undefined when none. */
  baseOf(classDef) {
    const superClass = classDef.node.superClass;
    if (superClass?.type !== "Identifier") return undefined;
    const definition = this.resolve(classDef.module, superClass.name);
    if (definition?.kind === "class") return definition;
    if (definition?.kind === "foreign")
      return { foreign: definition.specifier, name: definition.name };
    return undefined;
  }

  mixinsOf(classDef) {
    return (classDef.module.mixins.get(classDef.name) ?? [])
      .map((name) => this.resolve(classDef.module, name))
      .filter((definition) => definition?.kind === "class");
  }

  memberSummary(classDef, name, isStatic, seen = new Set()) {
    if (!classDef || seen.has(classDef)) return undefined;
    seen.add(classDef);
    if (classDef.foreign)
      return this.foreignSummary(
        classDef.foreign,
        `${classDef.name}${isStatic ? "." : "#"}${name}`,
      );
    const own = this.classMembers(classDef).get(`${isStatic ? "." : "#"}${name}`);
    if (own) {
      if (own.type === "MethodDefinition")
        return this.summarize(own.value, classDef.module, classDef);
      if (isFunctionNode(own.value)) return this.summarize(own.value, classDef.module, classDef);
      return new Set();
    }
    const inherited = this.memberSummary(this.baseOf(classDef), name, isStatic, seen);
    if (inherited) return inherited;
    if (isStatic) return undefined;
    for (const mixin of this.mixinsOf(classDef)) {
      const mixed = this.memberSummary(mixin, name, false, seen);
      if (mixed) return mixed;
    }
    return undefined;
  }

  constructorSummary(classDef) {
    if (!classDef) return new Set();
    if (classDef.foreign) return this.foreignSummary(classDef.foreign, classDef.name) ?? new Set();
    const members = this.classMembers(classDef);
    const commands = new Set();
    const constructor = members.get("#constructor");
    if (constructor)
      for (const command of this.summarize(constructor.value, classDef.module, classDef))
        commands.add(command);
    else
      for (const command of this.constructorSummary(this.baseOf(classDef))) commands.add(command);
    for (const member of members.values()) {
      if (
        member.type === "PropertyDefinition" &&
        !member.static &&
        member.value &&
        !isFunctionNode(member.value)
      ) {
        for (const command of this.summarize(
          { params: [], body: member.value },
          classDef.module,
          classDef,
        ))
          commands.add(command);
      }
    }
    return commands;
  }

  /** Every instance (`#`) and static (`.`) member name of a class, inherited and mixed-in ones included. */
  allMemberKeys(classDef, seen = new Set()) {
    if (!classDef || seen.has(classDef)) return new Set();
    seen.add(classDef);
    if (classDef.foreign)
      return new Set(this.foreign(classDef.foreign)?.classMembers?.(classDef.name) ?? []);
    const keys = new Set(
      [...this.classMembers(classDef).entries()]
        .filter(([, member]) => member.type === "MethodDefinition" || isFunctionNode(member.value))
        .map(([key]) => key),
    );
    keys.delete("#constructor");
    for (const key of this.allMemberKeys(this.baseOf(classDef), seen)) keys.add(key);
    for (const mixin of this.mixinsOf(classDef))
      for (const key of this.allMemberKeys(mixin, new Set(seen)))
        if (key.startsWith("#")) keys.add(key);
    return keys;
  }

  declaredReturn(classDef, key) {
    for (let current = classDef, depth = 0; current && depth < 8; depth++) {
      if (current.foreign) return this.foreign(current.foreign)?.member(`${current.name}${key}`)?.r;
      const found = current.module.returns.get(`${current.name}${key}`);
      if (found) return found;
      const mixin = key.startsWith("#")
        ? this.mixinsOf(current)
            .map((m) => m.module.returns.get(`${m.name}${key}`))
            .find(Boolean)
        : undefined;
      if (mixin) return mixin;
      current = this.baseOf(current);
    }
    return undefined;
  }

  /**
   * The table of one public module: exported name → { c: commands, r?: returned class } (classes give
   * `Name` for the constructor, `Name#m` and `Name.m` for members), `ns` for namespaces and `classes`
   * for the classes returned that live in another public module.
   */
  table(file, publicModules) {
    const moduleInfo = this.module(file);
    const members = {};
    const namespaces = {};
    const classHomes = {};
    const returnsOf = new Map();
    const put = (name, commands, declared) => {
      const returned =
        declared && this.isClass(declared, moduleInfo, publicModules) ? declared : undefined;
      const plain = new Set(
        [...commands].map((command) => command.replace(/^(?:!\{\d+\}\.\w+\|)+/, "")),
      );
      members[name] = { c: [...plain].sort(), ...(returned ? { r: returned } : {}) };
      if (returned) returnsOf.set(name, returned);
    };
    const exportedClasses = new Map();
    for (const name of this.exportNames(moduleInfo)) {
      const definition = this.resolveExport(moduleInfo, name);
      if (!definition) continue;
      if (definition.kind === "function")
        put(
          name,
          this.summarize(definition.node, definition.module),
          definition.module.returns.get(name) ??
            definition.module.returns.get(this.localNameOf(definition)),
        );
      else if (definition.kind === "class") {
        // Members under the class's own name (what its methods return and .d.ts say); `default` or a
        // renamed export is an alias whose `r` names the class.
        exportedClasses.set(definition.name, name);
        this.putClass(definition.name, definition, put);
        if (name !== definition.name)
          put(name, this.constructorSummary(definition), definition.name);
      } else if (definition.kind === "namespace") {
        const specifier = publicModules.get(definition.module.file);
        if (specifier) namespaces[name] = specifier;
      } else if (definition.kind === "foreignNamespace") namespaces[name] = definition.specifier;
      else if (definition.kind === "foreign") {
        const answer = this.foreign(definition.specifier)?.member(definition.name);
        if (answer) put(name, answer.c, answer.r);
        const classKeys = this.foreign(definition.specifier)?.classMembers?.(definition.name) ?? [];
        for (const key of classKeys) {
          const inner = this.foreign(definition.specifier).member(`${definition.name}${key}`);
          if (inner) put(`${name}${key}`, inner.c, inner.r);
        }
      } else put(name, [], undefined);
    }
    // A returned class this module does not export: where users reach its members.
    for (const returned of new Set(returnsOf.values())) {
      if (exportedClasses.has(returned) || members[returned]) continue;
      const home = this.classHome(returned, moduleInfo, publicModules);
      if (home) classHomes[returned] = home;
    }
    return {
      members,
      ...(Object.keys(namespaces).length ? { ns: namespaces } : {}),
      ...(Object.keys(classHomes).length ? { classes: classHomes } : {}),
    };
  }

  /** Is a returned type name a class users can call members on (this package's or a foreign one)? */
  isClass(name, moduleInfo, publicModules) {
    const binding = this.resolve(moduleInfo, name);
    if (binding?.kind === "class") return true;
    if (binding?.kind === "foreign")
      return (
        (this.foreign(binding.specifier)?.classMembers?.(binding.name) ?? []).length > 0 ||
        this.foreign(binding.specifier)?.member(binding.name)?.r === binding.name
      );
    for (const file of publicModules.keys())
      if (this.resolveExport(this.module(file), name)?.kind === "class") return true;
    return false;
  }

  localNameOf(definition) {
    return definition.node.id?.name;
  }

  putClass(name, definition, put) {
    put(name, this.constructorSummary(definition), name);
    for (const key of this.allMemberKeys(definition)) {
      const isStatic = key.startsWith(".");
      const member = key.slice(1);
      const summary = this.memberSummary(definition, member, isStatic) ?? new Set();
      put(`${name}${key}`, summary, this.declaredReturn(definition, key));
    }
  }

  /** The public module that exports a class by this name (this package first, then the foreign ones it imports). */
  classHome(className, moduleInfo, publicModules) {
    for (const [file, specifier] of publicModules) {
      const other = this.module(file);
      if (other !== moduleInfo && this.resolveExport(other, className)?.kind === "class")
        return specifier;
    }
    for (const binding of moduleInfo.bindings.values()) {
      if (
        binding.kind === "import" &&
        !binding.from.startsWith(".") &&
        binding.imported === className
      )
        return binding.from;
    }
    return undefined;
  }
}
