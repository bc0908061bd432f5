/**
 * What build scripts tell the build about permissions, read as text (no Rust parser): the plugins an
 * app's build.rs inlines (`tauri_build::Attributes::new().plugin("name", InlinedPlugin::new()…)`),
 * and the commands a plugin's build.rs hands to `tauri_plugin::Builder::new(COMMANDS)`. Command lists
 * are string literals written in place or in a `const`/`static` of the same file; anything else is
 * not followed. Every scan is bounded, so a hostile build.rs costs time linear in its length.
 */

/** How far one call's arguments may reach: real ones are a few hundred characters. */
const MAX_CALL_CHARS = 32 * 1024;
/** Real apps inline a handful of plugins. */
const MAX_INLINED_PLUGINS = 256;

export type DefaultPermissionRule =
  { kind: "all-commands" } | { kind: "allow"; permissions: string[] };

export interface InlinedPluginDecl {
  name: string;
  commands: string[];
  /** `.default_permission(…)`; without it only a `default` in the plugin's permission files gives one. */
  defaultRule?: DefaultPermissionRule;
  /** `.permissions_path_pattern("…")`: caplint reads `permissions/<name>/` only, and says so when it is set. */
  permissionsPattern?: string;
}

/** The plugins a build script inlines, in the order written. */
export function inlinedPlugins(source: string): InlinedPluginDecl[] {
  const plugins: InlinedPluginDecl[] = [];
  if (!source.includes("InlinedPlugin")) return plugins;
  let from = 0;
  for (
    let attempts = 0;
    attempts < MAX_INLINED_PLUGINS * 4 && plugins.length < MAX_INLINED_PLUGINS;
    attempts++
  ) {
    const at = source.indexOf(".plugin(", from);
    if (at < 0) break;
    const open = at + ".plugin".length;
    const call = balancedCall(source, open);
    from = open + 1;
    if (call === undefined) continue;
    const name = /^\s*"([^"\\]*)"\s*,\s*/.exec(call);
    if (!name) continue;
    let chain = call.slice(name[0].length);
    // `.plugin("name", inline)`: the chain was built in a `let inline = …;` above.
    const variable = /^([A-Za-z_][A-Za-z0-9_]*)\s*,?\s*$/.exec(chain);
    if (variable) chain = letValue(source, variable[1]!, at) ?? "";
    if (!chain.includes("InlinedPlugin")) continue;
    from = open + call.length;
    plugins.push(describeInlined(name[1]!, chain, source));
  }
  return plugins;
}

function describeInlined(name: string, chain: string, source: string): InlinedPluginDecl {
  const plugin: InlinedPluginDecl = { name, commands: [] };
  const commands = argumentOf(chain, ".commands(");
  if (commands !== undefined) plugin.commands = stringList(commands, source);
  const rule = argumentOf(chain, ".default_permission(");
  if (rule !== undefined) {
    if (rule.includes("AllowAllCommands")) plugin.defaultRule = { kind: "all-commands" };
    else if (/\bAllow\s*\(/.test(rule))
      plugin.defaultRule = { kind: "allow", permissions: literals(rule) };
  }
  const pattern = argumentOf(chain, ".permissions_path_pattern(");
  if (pattern !== undefined) plugin.permissionsPattern = literals(pattern)[0] ?? pattern.trim();
  return plugin;
}

/** The commands of a plugin's `tauri_plugin::Builder::new(COMMANDS)`, or undefined when there is no such call. */
export function pluginBuilderCommands(source: string): string[] | undefined {
  const at = source.indexOf("Builder::new(");
  if (at < 0) return undefined;
  const argument = balancedCall(source, at + "Builder::new".length);
  return argument === undefined ? undefined : stringList(argument, source);
}

/**
 * The text between the bracket at `open` (`(` or `[`) and its match, or undefined when it does not close
 * within the bound. String literals are skipped, so a `)` inside one does not count.
 */
function balancedCall(source: string, open: number): string | undefined {
  if (source[open] !== "(" && source[open] !== "[") return undefined;
  let depth = 0;
  const end = Math.min(source.length, open + MAX_CALL_CHARS);
  for (let i = open; i < end; i++) {
    const char = source[i];
    if (char === '"') {
      i = skipString(source, i, end);
      continue;
    }
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") {
      depth--;
      if (depth === 0) return source.slice(open + 1, i);
    }
  }
  return undefined;
}

function skipString(source: string, quote: number, end: number): number {
  for (let i = quote + 1; i < end; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === '"') return i;
  }
  return end;
}

/** The argument of the first `.method(` call in a builder chain. */
function argumentOf(chain: string, method: string): string | undefined {
  const at = chain.indexOf(method);
  return at < 0 ? undefined : balancedCall(chain, at + method.length - 1);
}

/** A command list: `&["a", "b"]` in place, or the name of a `const`/`static` list in the same file. */
function stringList(argument: string, source: string): string[] {
  const trimmed = argument.trim();
  const named = /^&?\s*([A-Z_][A-Za-z0-9_]*)$/.exec(trimmed);
  if (named) {
    const declaration = new RegExp(`\\b(?:const|static)\\s+${named[1]}\\s*:[^=]{0,80}=\\s*`).exec(
      source,
    );
    if (!declaration) return [];
    const open = source.indexOf("[", declaration.index + declaration[0].length);
    if (open < 0 || open - (declaration.index + declaration[0].length) > 4) return [];
    const list = balancedCall(source, open);
    return list === undefined ? [] : literals(list);
  }
  return literals(trimmed);
}

function literals(text: string): string[] {
  const found: string[] = [];
  const literal = /"((?:[^"\\\n]|\\.)*)"/g;
  for (let match = literal.exec(text); match; match = literal.exec(text)) found.push(match[1]!);
  return found;
}

/** The value of `let <name> = …;` written before `before`, up to its `;` (nearest declaration wins). */
function letValue(source: string, name: string, before: number): string | undefined {
  const at = source.lastIndexOf(`let ${name}`, before);
  if (at < 0) return undefined;
  const equals = source.indexOf("=", at);
  if (equals < 0 || equals - at > name.length + 80) return undefined;
  const end = source.indexOf(";", equals);
  if (end < 0 || end - equals > MAX_CALL_CHARS) return undefined;
  return source.slice(equals + 1, end);
}
