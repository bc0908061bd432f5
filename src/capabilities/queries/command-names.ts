import { APP_KEY } from "../catalog/types.js";
import type { Catalog } from "../catalog/catalog.js";
import { commandName, compareCodePoints } from "../engine/index.js";
import { nearest } from "../../core/did-you-mean.js";
import { parseCommandName } from "../engine/command-name.js";

/** Every command the catalog knows, by the name the frontend invokes, with its manifest key. */
export class CommandIndex {
  /** `plugin:fs|read_text_file` → `fs`; app commands under their bare name → `__app-acl__`. */
  readonly keyOf = new Map<string, string>();
  /** `read_text_file` → every invoked name ending in it. */
  private readonly byBareName = new Map<string, string[]>();
  /** A command in the project's spelling of the brand word (`plugin:app|host_version` ≡ `plugin:app|tauri_version`). */
  readonly spell: (command: string) => string;

  constructor(catalog: Catalog, extraCommands: Iterable<string> = []) {
    this.spell = (command) => catalog.spellCommand(command);
    for (const key of catalog.keys()) {
      const manifest = catalog.get(key)!;
      for (const permission of Object.values(manifest.permissions)) {
        for (const command of [...permission.commands.allow, ...permission.commands.deny])
          this.add(commandName(key, command), key, command);
      }
    }
    // Commands the resolution knows but no manifest lists (an app command granted through a set).
    for (const invoked of extraCommands) {
      if (this.keyOf.has(invoked)) continue;
      const parts = parseCommandName(invoked);
      this.add(invoked, parts.plugin === undefined ? APP_KEY : parts.plugin, parts.name);
    }
  }

  private add(invoked: string, key: string, bare: string): void {
    if (this.keyOf.has(invoked)) return;
    this.keyOf.set(invoked, key);
    const list = this.byBareName.get(bare) ?? [];
    list.push(invoked);
    this.byBareName.set(bare, list);
  }

  has(invoked: string): boolean {
    return this.keyOf.has(invoked);
  }

  withBareName(name: string): string[] {
    return [...(this.byBareName.get(name) ?? [])].sort(compareCodePoints);
  }

  suggest(input: string, max = 3): string[] {
    const bare = input.replace(/^.*[|.:]/, "");
    const byName = nearest(bare, this.byBareName.keys(), max).flatMap((name) =>
      this.withBareName(name),
    );
    const byFull = nearest(input, this.keyOf.keys(), max);
    return [...new Set([...byFull, ...byName])].slice(0, max);
  }
}

/** `known` is false for a command no manifest lists; `suggestions` are then the nearest known ones. */
export type CommandLookup =
  | { ok: true; command: string; known: boolean; suggestions: string[] }
  | { ok: false; message: string; suggestions: string[] };

/**
 * A command as a person writes it, to the name the frontend invokes: `plugin:fs|read_text_file`,
 * `fs|read_text_file`, `fs.read_text_file` (as the host's messages print it), `fs:read_text_file`,
 * `core:window.close`, or a bare `read_text_file` when exactly one plugin has it. A bare name that
 * no plugin has is an app command (apps register commands in Rust; the catalog may not list them).
 */
export function lookupCommand(input: string, index: CommandIndex): CommandLookup {
  const text = input.trim();
  if (text === "") return { ok: false, message: "the command is empty", suggestions: [] };
  if (index.has(index.spell(text)))
    return { ok: true, command: index.spell(text), known: true, suggestions: [] };
  const written = invokedForm(text);
  // Either spelling of the brand word names the same command; answers use the project's.
  const invoked = written === undefined ? undefined : index.spell(written);
  if (invoked !== undefined) {
    if (index.has(invoked)) return { ok: true, command: invoked, known: true, suggestions: [] };
    return { ok: true, command: invoked, known: false, suggestions: index.suggest(invoked) };
  }
  const candidates = index.withBareName(text);
  if (candidates.length === 0 && /^(host|tauri)_version$/.test(text))
    for (const item of index.withBareName(
      text === "host_version" ? "tauri_version" : "host_version",
    ))
      candidates.push(item);
  if (candidates.length === 1)
    return { ok: true, command: candidates[0]!, known: true, suggestions: [] };
  if (candidates.length > 1) {
    return {
      ok: false,
      message: `"${text}" is a command of several plugins; write which one`,
      suggestions: candidates,
    };
  }
  if (/^[A-Za-z0-9_]+$/.test(text))
    return { ok: true, command: text, known: false, suggestions: index.suggest(text) };
  return {
    ok: false,
    message: `"${text}" is not a command name: write the command as invoked, e.g. plugin:fs|read_text_file, fs.read_text_file or read_text_file`,
    suggestions: index.suggest(text),
  };
}

/** The invoked name for a written form that names the plugin, or undefined for a bare name. */
function invokedForm(text: string): string | undefined {
  const area = (plugin: string) => plugin.replace(/^core:/, "");
  let match = /^(?:plugin:)?([A-Za-z0-9:_-]+)\|([A-Za-z0-9_]+)$/.exec(text);
  if (match) return `plugin:${area(match[1]!)}|${match[2]}`;
  match = /^([A-Za-z0-9:_-]+)\.([A-Za-z0-9_]+)$/.exec(text);
  if (match) return `plugin:${area(match[1]!)}|${match[2]}`;
  match = /^([A-Za-z0-9:_-]+):([A-Za-z0-9_]+)$/.exec(text);
  if (match) return `plugin:${area(match[1]!)}|${match[2]}`;
  return undefined;
}
