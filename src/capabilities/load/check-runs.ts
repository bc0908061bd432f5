import path from "node:path";
import { discoverApps, enclosingApp } from "./apps.js";
import { findSrcTauri, HOST_CONFIG_NAME, type LoadOptions } from "./project.js";
import { pathKind } from "../../core/source/read.js";
import { FatalError } from "../../core/errors.js";

/** One project to load and check; `focus` limits the findings to the files given (see LintOptions). */
export interface CheckRun {
  load: LoadOptions;
  focus?: string[];
  /** The app folder, when the run checks an app. */
  app?: string;
}

/**
 * Splits what the command line names into projects, each checked in its own app's context:
 * - nothing named, in a folder that is no app: every app below it (a monorepo root);
 * - files (pre-commit passes staged files) and folders inside an app: that app, loaded whole so the
 *   catalog, config and other capability files count as in a full run, findings kept for the files;
 * - an app folder or a host config: that whole app;
 * - a folder that holds apps (a monorepo root, a corpus): each app in its own context, exactly as
 *   `caplint` run in that folder (its other files are not capabilities of any app);
 * - anything outside an app: checked on its own, as before.
 */
export async function planCheckRuns(base: LoadOptions): Promise<CheckRun[]> {
  const cwd = base.cwd;
  const paths = base.paths ?? [];
  if (base.app !== undefined) return [{ load: base }];
  if (paths.length === 0) {
    if (base.discover === false || (await findSrcTauri(cwd))) return [{ load: base }];
    const { apps, truncated } = await discoverApps(cwd);
    // An app past the limits would be skipped with "no problems": the run stops and says why instead.
    if (truncated !== undefined) {
      throw new FatalError(
        `${truncated}; apps there would go unchecked${apps.length ? ` (${apps.length} found before it)` : ""}: run caplint in the app's folder, or pass --app DIR for each app`,
      );
    }
    if (apps.length === 0) return [{ load: base }];
    return apps.map((app) => ({ load: { ...base, app }, app }));
  }

  const byApp = new Map<string, { paths: string[]; whole: boolean }>();
  const loose: string[] = [];
  const appOf = (app: string) => {
    let group = byApp.get(app);
    if (!group) byApp.set(app, (group = { paths: [], whole: false }));
    return group;
  };
  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    // Standard input named by --stdin-filename is a file of its app even before it exists on disk
    // (an editor's unsaved buffer): it must get the same app context as the saved file would.
    const kind = base.sourceOverrides?.has(absolute) ? "file" : await pathKind(absolute);
    if (kind === "file" && HOST_CONFIG_NAME.test(path.basename(absolute))) {
      const srcTauri = await findSrcTauri(path.dirname(absolute));
      if (srcTauri) appOf(appFolder(srcTauri)).whole = true;
      else loose.push(given);
      continue;
    }
    if (kind === "directory") {
      const srcTauri = await findSrcTauri(absolute);
      if (srcTauri) {
        appOf(appFolder(srcTauri)).whole = true;
        continue;
      }
      if (!(await enclosingApp(absolute, cwd))) {
        const { apps, truncated } = await discoverApps(absolute);
        if (truncated !== undefined)
          throw new FatalError(
            `${given}: ${truncated}; apps there would go unchecked: pass --app DIR for each app`,
          );
        if (apps.length > 0) {
          for (const app of apps) appOf(app).whole = true;
          continue;
        }
      }
    }
    const srcTauri =
      kind === "file" || kind === "directory" ? await enclosingApp(absolute, cwd) : undefined;
    if (srcTauri)
      appOf(appFolder(srcTauri)).paths.push(kind === "directory" ? absolute + path.sep : absolute);
    else loose.push(given);
  }

  const runs: CheckRun[] = [];
  for (const [app, group] of byApp) {
    const load: LoadOptions = {
      ...base,
      app,
      paths: group.whole ? [] : group.paths.map((p) => p.replace(/[\\/]+$/, "")),
    };
    runs.push(group.whole ? { load, app } : { load, app, focus: group.paths });
  }
  if (loose.length) runs.push({ load: { ...base, paths: loose } });
  return runs;
}

/** The folder `--app` takes for a src-tauri folder: its parent when it is named src-tauri. */
function appFolder(srcTauri: string): string {
  return path.basename(srcTauri) === "src-tauri" ? path.dirname(srcTauri) : srcTauri;
}
