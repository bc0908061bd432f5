/**
 * What is at a place in an analysed file: the permission entry, window label or remote URL pattern a
 * cursor is on, found from the loaded model's own paths (so JSON and TOML files alike), and the
 * plugins, labels and platforms this app has, for completion and hover.
 */
import { APP_KEY } from "../capabilities/catalog/types.js";
import { configDocuments } from "../capabilities/load/app-config.js";
import type { Project } from "../capabilities/load/project.js";
import type { Capability, PermissionEntry } from "../capabilities/model/types.js";
import { knownWindowLabels } from "../capabilities/queries/project-model.js";
import type { JsonPath } from "../core/location.js";
import type { SourceDocument } from "../core/source/document.js";

export type Place =
  | {
      kind: "permission";
      capability: Capability;
      entry: PermissionEntry;
      offset: number;
      length: number;
    }
  | {
      kind: "label";
      field: "windows" | "webviews" | "config";
      label: string;
      capability?: Capability;
      offset: number;
      length: number;
    }
  | { kind: "url"; pattern: string; capability: Capability; offset: number; length: number };

/** The parsed document of a file the analysis read: a capability file, the app config or a platform config, a generated manifest. */
export function documentOf(project: Project, file: string): SourceDocument | undefined {
  return (
    project.documents.find((d) => d.absolutePath === file) ??
    configDocuments(project.config).find((d) => d.absolutePath === file) ??
    project.manifestDocuments.find((d) => d.absolutePath === file)
  );
}

export function capabilitiesIn(project: Project, file: string): Capability[] {
  return project.capabilities.filter((capability) => capability.source.absolutePath === file);
}

/** The entry, label or URL pattern whose text holds `offset`. */
export function placeAt(
  project: Project,
  document: SourceDocument,
  offset: number,
): Place | undefined {
  if (!document.ok) return undefined;
  const at = (path: JsonPath) => {
    const located = document.locate(path);
    return located.exact && offset >= located.offset && offset <= located.offset + located.length
      ? located
      : undefined;
  };
  for (const capability of capabilitiesIn(project, document.absolutePath)) {
    for (const entry of capability.permissions) {
      const found = at(entry.extended ? [...entry.path, "identifier"] : entry.path);
      if (found)
        return {
          kind: "permission",
          capability,
          entry,
          offset: found.offset,
          length: found.length,
        };
    }
    for (const field of ["windows", "webviews"] as const) {
      for (const item of capability[field]) {
        const found = at(item.path);
        if (found)
          return {
            kind: "label",
            field,
            label: item.value,
            capability,
            offset: found.offset,
            length: found.length,
          };
      }
    }
    for (const item of capability.remote?.urls ?? []) {
      const found = at(item.path);
      if (found)
        return {
          kind: "url",
          pattern: item.value,
          capability,
          offset: found.offset,
          length: found.length,
        };
    }
  }
  if (project.config?.document === document) {
    for (const window of project.config.windows) {
      const found = at([...window.path, "label"]);
      if (found)
        return {
          kind: "label",
          field: "config",
          label: window.label,
          offset: found.offset,
          length: found.length,
        };
    }
  }
  return undefined;
}

/**
 * Whether the app has a plugin: the core plugins and the app's own permissions always; others when its
 * Cargo files make it a dependency or the repository defines it (an inlined or path plugin, a committed
 * manifest). Without Cargo files, every plugin the catalog knows.
 */
export function appHasPlugin(project: Project, key: string): boolean {
  if (key === APP_KEY || key === "core" || key.startsWith("core:")) return true;
  const build = project.build;
  if (!build) return true;
  return build.plugins.has(key) || project.catalog.provenanceOf(key)?.origin !== "builtin";
}

/** Window and webview labels the app declares (tauri.conf.json) or its capabilities name literally. */
export function appLabels(project: Project): string[] {
  const labels = new Set(knownWindowLabels(project));
  for (const capability of project.capabilities) {
    for (const { value } of [...capability.windows, ...capability.webviews])
      if (!/[*?[\]]/.test(value)) labels.add(value);
  }
  return [...labels].sort();
}
