import { readPackageJson } from "../../core/package-files.js";
import type { AclManifests } from "./types.js";

let builtins: AclManifests | undefined;

/** The core and official-plugin catalogs shipped in `data/`, read once per process and shared (never changed). */
export function loadBuiltinManifests(): Promise<AclManifests> {
  const read = (name: string) => readPackageJson<AclManifests>("data", name);
  builtins ??= { ...read("core-acl-manifest.json"), ...read("plugins-acl-manifest.json") };
  return Promise.resolve(builtins);
}
