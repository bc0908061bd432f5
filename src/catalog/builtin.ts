import { readFile } from "node:fs/promises";
import type { AclManifests } from "./types.js";

let cached: Promise<AclManifests> | undefined;

/** The core and official-plugin catalogs shipped in `data/`, read once per process. */
export function loadBuiltinManifests(): Promise<AclManifests> {
  cached ??= (async () => {
    const read = async (name: string) => JSON.parse(await readFile(new URL(`../../data/${name}`, import.meta.url), "utf8")) as AclManifests;
    const [core, plugins] = await Promise.all([read("core-acl-manifest.json"), read("plugins-acl-manifest.json")]);
    return { ...core, ...plugins };
  })();
  return cached;
}
