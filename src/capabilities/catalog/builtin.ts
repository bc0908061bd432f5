import { readPackageJson } from "../../core/package-files.js";
import type { AclManifests } from "./types.js";

/** The core and official-plugin catalogs shipped in `data/`, read once per process. */
export function loadBuiltinManifests(): Promise<AclManifests> {
  const read = (name: string) => readPackageJson<AclManifests>("data", name);
  return Promise.resolve({ ...read("core-acl-manifest.json"), ...read("plugins-acl-manifest.json") });
}
