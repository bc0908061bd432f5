import { APP_KEY } from "../catalog/types.js";

/**
 * IPC command names as the frontend invokes them: `plugin:<plugin>|<command>` for plugins and core
 * areas (`plugin:window|close`), the bare name for the app's own commands. The one parser of that
 * shape; `commandName` (resolve.ts) builds it.
 */
export interface CommandNameParts {
  /** The plugin name as invoked (`window` for core areas); undefined for an app command. */
  plugin?: string;
  name: string;
}

export function parseCommandName(command: string): CommandNameParts {
  const match = /^plugin:([^|]+)\|(.*)$/s.exec(command);
  return match ? { plugin: match[1]!, name: match[2]! } : { name: command };
}

/** The catalog key the runtime looks a command's plugin up under: as invoked, then as a core area; a bare name is the app's own. */
export function catalogKeyOf(
  plugin: string | undefined,
  catalog: { has(key: string): boolean },
): string | undefined {
  if (plugin === undefined) return catalog.has(APP_KEY) ? APP_KEY : undefined;
  if (catalog.has(plugin)) return plugin;
  return catalog.has(`core:${plugin}`) ? `core:${plugin}` : undefined;
}
