import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/*
 * The only code that knows where caplint's own files are (package.json, schema/, data/ and the
 * generated validators in dist/generated/). The same module runs from src/ (tests), from
 * dist/<folder>/ (the library) and from esbuild's chunks in dist/cli-bundle/ (the bin), each at a
 * different depth, so the package root is found by walking up to caplint's package.json instead of
 * by a fixed number of "../" (which is how `caplint schema` once shipped broken).
 */

const PACKAGE_NAME = "caplint";
const HERE = fileURLToPath(import.meta.url);

let root: string | undefined;

/** The folder holding caplint's package.json. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = path.dirname(HERE);
  for (;;) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && nameOf(manifest) === PACKAGE_NAME) return (root = dir);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`caplint's own package.json was not found above ${HERE}`);
    dir = parent;
  }
}

function nameOf(manifest: string): unknown {
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}

/** A file shipped in the package, e.g. `packageFile("schema", "capability.schema.json")`. */
export function packageFile(...segments: string[]): string {
  return path.join(packageRoot(), ...segments);
}

/** Files shipped in the package (catalogs, schemas): the same for every run, a fixed handful. */
const jsonCache = new Map<string, unknown>();

/** A JSON file shipped in the package, parsed once per process. */
export function readPackageJson<T>(...segments: string[]): T {
  const file = packageFile(...segments);
  if (!jsonCache.has(file)) jsonCache.set(file, JSON.parse(readFileSync(file, "utf8")));
  return jsonCache.get(file) as T;
}

/** A text file shipped in the package, read each time it is asked for (callers keep what they need). */
export function readPackageText(...segments: string[]): string {
  return readFileSync(packageFile(...segments), "utf8");
}

/** caplint's own package.json. */
export function packageManifest(): { name: string; version: string } {
  return readPackageJson("package.json");
}

/**
 * A file the build generates into dist/generated/ (prebuilt/generated/ for the committed build), or undefined when caplint runs from its
 * sources (tests without a build), where a stale build product must not be picked up.
 */
export function generatedFile(name: string): string | undefined {
  // Built, this module is dist/core/package-files.js or inside dist/cli-bundle/main.cjs or check.cjs
  // (or the same bundles committed in prebuilt/cli-bundle/): the generated files are in that build's generated/.
  return HERE.endsWith(".ts") ? undefined : path.join(path.dirname(HERE), "..", "generated", name);
}
