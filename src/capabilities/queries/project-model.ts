import {
  resolve,
  type EntryProvenance,
  type Origin,
  type ResolvedCommand,
  type ResolvedModel,
} from "../engine/index.js";
import type { JsonPath, Range } from "../../core/location.js";
import { compareStrings } from "../../core/diagnostics.js";
import { valueAt, type SourceDocument } from "../../core/source/document.js";
import type { Project } from "../load/project.js";
import { configDocuments } from "../load/app-config.js";

/** The host's view of a project on one platform: the capabilities the build uses, resolved. */
export function resolveProject(project: Project, platform: string): ResolvedModel {
  return resolve({ capabilities: project.activeCapabilities, catalog: project.catalog, platform });
}

/**
 * The model as seen from every origin at once: each capability's contexts (local and every remote
 * pattern) all count, so a grant made only to remote pages shows beside the local ones. Denies are
 * global anyway. For overviews (`report`); a single call always has one origin.
 */
export function everyOrigin(model: ResolvedModel): ResolvedModel {
  return {
    ...model,
    allowed: model.allowed,
    denied: model.denied,
    globalScope: model.globalScope,
    allowedCommandLists: (capabilityIndex) => model.allowedCommandLists(capabilityIndex),
    capabilities: model.capabilities.map((capability) => ({
      ...capability,
      contextMatches: (contextIndex: number) =>
        contextIndex >= 0 && contextIndex < capability.contexts.length,
    })),
  };
}

const GLOB_CHARACTERS = /[*?[\]]/;

/**
 * The app's windows, the one list every command asks about (matrix columns, the report, access, who-can,
 * explain, the known windows of a refusal, the language server): the labels declared in tauri.conf.json
 * and its platform configs, then those the app creates in its Rust and frontend sources (a window made
 * in `src/lib.rs` is as real as a configured one). An app that names none: every literal (glob-free)
 * label its capabilities name, windows and webviews alike.
 */
export function knownWindowLabels(project: Project): string[] {
  const declared = [
    ...(project.config?.windows.map((w) => w.label) ?? []),
    ...(project.codeWindows?.labels.map((made) => made.label) ?? []),
  ];
  if (declared.length) return [...new Set(declared)];
  const literal = new Set<string>();
  for (const capability of project.activeCapabilities) {
    for (const { value: label } of [...capability.windows, ...capability.webviews])
      if (!GLOB_CHARACTERS.test(label)) literal.add(label);
  }
  return [...literal].sort();
}

/** Finds where provenance points: the line of a capability entry in its file. */
export class SourceLines {
  private readonly byFile = new Map<string, SourceDocument>();
  /** The first capability file in path order, where a finding about the app as a whole can sit; undefined for an app without one. */
  readonly firstCapabilityFile: string | undefined;

  constructor(project: Project) {
    for (const document of project.documents) this.byFile.set(document.file, document);
    for (const document of configDocuments(project.config))
      this.byFile.set(document.file, document);
    this.firstCapabilityFile = project.capabilities
      .map((capability) => capability.source.file)
      .sort(compareStrings)[0];
  }

  /** Whether `file` was loaded on this side. */
  has(file: string): boolean {
    return this.byFile.has(file);
  }

  /** The parsed value at `path` in a loaded file, or undefined. */
  valueAt(file: string, path: JsonPath): unknown {
    const document = this.byFile.get(file);
    return document?.ok ? valueAt(document.value, path) : undefined;
  }

  /**
   * Lines by path object: every command a permission entry grants carries that entry's own path, so an
   * answer about a window asks for the same few thousand paths again and again (17,590 times for 8,738
   * paths on 5,000 capabilities).
   */
  private readonly lines = new Map<JsonPath, { file: string; line: number }>();

  line(file: string, path: JsonPath): number {
    const known = this.lines.get(path);
    if (known?.file === file) return known.line;
    const line = this.byFile.get(file)?.locate(path).range.start.line ?? 1;
    this.lines.set(path, { file, line });
    return line;
  }

  /** The range of a value in a loaded file (a permission entry), for findings; undefined for a file not loaded. */
  range(file: string, path: JsonPath): Range | undefined {
    return this.byFile.get(file)?.locate(path).range;
  }

  where(entry: { provenance: EntryProvenance }): string {
    return `${entry.provenance.file}:${this.line(entry.provenance.file, entry.provenance.path)}`;
  }
}

/** The JSON shape of an entry's provenance, shared by every query's `--format json`. */
export function provenanceJson(entry: ResolvedCommand, lines: SourceLines) {
  return {
    capability: entry.provenance.capability,
    permission: entry.provenance.chain[0] ?? "",
    chain: entry.provenance.chain,
    file: entry.provenance.file,
    line: lines.line(entry.provenance.file, entry.provenance.path),
    context: entry.context.kind === "local" ? "local" : { remote: entry.context.url },
    windows: entry.windows,
    webviews: entry.webviews,
  };
}

/**
 * An origin as the host's `Origin` display writes it (`local`, `remote: https://…/`), the way its
 * refusal texts say "explicitly denied on origin remote: https://…", so answers read like the runtime.
 */
export function originDisplay(origin: Origin): string {
  return origin.kind === "local" ? "local" : `remote: ${origin.url}`;
}

export function contextLabel(entry: ResolvedCommand): string {
  return entry.context.kind === "local" ? "local" : entry.context.url;
}
