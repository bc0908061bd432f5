/**
 * What the scan needs to know about Tauri's JavaScript packages: which commands a member invokes and
 * what it returns. The loader passes the map of the locked releases (js-api.ts); tests may pass their own.
 */

export interface ApiMember {
  readonly commands: readonly string[];
  /** The class of the object it returns (`getCurrentWindow` → `Window`), also through a promise. */
  readonly returns?: string;
  /** The class of the elements of the array it returns (`getAllWindows` → `Window`). */
  readonly returnsArrayOf?: string;
}

export interface ApiModule {
  /** "open" (export), "Window" (class), "Window#setTitle" (instance member), "Database.load" (static). */
  member(name: string): ApiMember | undefined;
}

export interface ApiLookup {
  /** The module of a specifier (`@tauri-apps/api/window`, `@tauri-apps/plugin-fs`), undefined when it is not Tauri's. */
  module(specifier: string): ApiModule | undefined;
  /** `window.__TAURI__.<namespace>` → the specifier of its module. */
  globalNamespace(namespace: string): string | undefined;
  /** Commands a markup attribute makes the runtime call (`data-tauri-drag-region`). */
  implicit(trigger: string): readonly string[];
}

/** `window.__TAURI_INTERNALS__` holds `invoke`, as this module exports it. */
export const CORE_MODULE = "@tauri-apps/api/core";

/** Tauri's own packages: a specifier of these that the map does not know is still not the app's code. */
export function isTauriSpecifier(request: string): boolean {
  return request === "@tauri-apps/api" || request.startsWith("@tauri-apps/");
}
