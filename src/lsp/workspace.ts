/**
 * What the server knows of the editor's workspace: which file belongs to which app (or is a
 * recording, or a client configuration), the latest check of each app, and when to check again.
 * Everything is keyed by document URI or app folder and dropped when its last document closes, so
 * memory follows what is open, not how long the session has run.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { minimatch } from "minimatch";
import type {
  Connection,
  Diagnostic as LspDiagnostic,
  TextDocuments,
} from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Diagnostic } from "../core/diagnostics.js";
import { enclosingApp } from "../capabilities/load/apps.js";
import { isFrontendFile } from "../capabilities/frontend/blocks.js";
import { CheckSession } from "../capabilities/check-run.js";
import {
  analyzeApp,
  analyzeClientConfig,
  analyzeRecording,
  type AppAnalysis,
  type AppTarget,
} from "./analysis.js";
import { toLspDiagnostic } from "./convert.js";
import { DiagnosticSeverity } from "./protocol.js";
import { DEFAULT_SETTINGS, type ServerSettings } from "./settings.js";

export interface AppState {
  /** The src-tauri folder, or the file checked alone. */
  key: string;
  target: AppTarget;
  folder: string;
  analysis?: AppAnalysis;
  /** Open buffers changed since `analysis` began: a check is due. */
  dirty: boolean;
  /** The app's check, which keeps its model between checks. */
  session: CheckSession;
  /** How long the app's last check took (ms): a change waits no longer than that before the next. */
  lastCheckMs?: number;
  /** Files changed since the last check began (their paths), or "all" when anything may have. */
  changes: Set<string> | "all";
  running?: Promise<void>;
  /**
   * What this app's findings last told each URI (its list as text, {@link toldKey}): a URI is told again only when its
   * list changed (an edit changes the findings of a file or two, not of all 50), and one whose findings
   * are gone is told it is clean.
   */
  told: Map<string, string>;
}

/** The time a workspace reads and the timers it sets (a test passes its own). */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const SYSTEM_CLOCK: Clock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

type Owner =
  | { kind: "app"; app: AppState }
  | { kind: "recording"; client: boolean }
  | { kind: "client-config" }
  /** A Cargo file or caplint.config.json above the apps it governs (a Cargo workspace's lock, a shared config). */
  | { kind: "governs-below"; folder: string }
  | { kind: "none" };

/** Files in an app whose change can change its verdict: capability, permission and config files, Cargo files, Rust sources (window labels, build.rs). */
const APP_FILE = /\.(json|toml|lock|rs)$/;
const CLIENT_CONFIG =
  /(^|[\\/])(\.mcp\.json|claude_desktop_config\.json|\.vscode[\\/]mcp\.json|\.cursor[\\/]mcp\.json)$/;

export class Workspace {
  settings: ServerSettings = DEFAULT_SETTINGS;
  folders: string[] = [];
  private readonly owners = new Map<string, Promise<Owner>>();
  /** The owners found so far, for what must know one without waiting (the wait after a change). */
  private readonly knownOwners = new Map<string, Owner>();
  private readonly apps = new Map<string, AppState>();
  private readonly timers = new Map<string, unknown>();
  private readonly shown = new Set<string>();
  private disposed = false;

  constructor(
    private readonly connection: Connection,
    readonly documents: TextDocuments<TextDocument>,
    private readonly env: Readonly<Record<string, string | undefined>>,
    /** How time passes: the wall clock and Node's timers, or a test's own (which counts, never waits). */
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  /** A document was opened or edited: check it (its app, with every open buffer) once the typing pauses. */
  changed(uri: string): void {
    const previous = this.timers.get(uri);
    if (previous) this.clock.clearTimeout(previous);
    void this.ownerOf(uri).then((owner) => {
      if (owner.kind !== "app") return;
      owner.app.dirty = true;
      touch(owner.app, filePathOf(uri));
    });
    this.timers.set(
      uri,
      this.clock.setTimeout(() => {
        this.timers.delete(uri);
        this.guard(this.check(uri));
      }, this.waitAfterChange(uri)),
    );
  }

  /**
   * How long a change waits for the next before its check starts: the debounce, or less when the
   * document's app was last checked in less time than that. The wait saves checks made stale by the
   * next keystroke; a check quicker than the wait costs less than the wait itself.
   */
  private waitAfterChange(uri: string): number {
    const owner = this.knownOwners.get(uri);
    const last = owner?.kind === "app" ? owner.app.lastCheckMs : undefined;
    return last === undefined
      ? this.settings.debounceMs
      : Math.min(this.settings.debounceMs, Math.ceil(last));
  }

  /** A document was opened: it is told its findings after its first check even when they did not change. */
  opened(uri: string): void {
    void this.ownerOf(uri).then((owner) => {
      if (owner.kind === "app") owner.app.told.delete(uri);
    });
    this.changed(uri);
  }

  /** A document was closed: the disk's text counts again, and what only it held is forgotten. */
  closed(uri: string): void {
    const timer = this.timers.get(uri);
    if (timer) this.clock.clearTimeout(timer);
    this.timers.delete(uri);
    const owner = this.owners.get(uri);
    this.owners.delete(uri);
    this.knownOwners.delete(uri);
    this.guard(
      (async () => {
        const known = await owner;
        if (known?.kind === "app") {
          const app = known.app;
          if (await this.hasOpenDocuments(app)) {
            // The disk's text counts again: the file changed for the check.
            touch(app, filePathOf(uri));
            await this.refresh(app);
          } else this.forget(app);
        } else if (known?.kind === "recording" || known?.kind === "client-config") {
          await this.send(uri, []);
        } else if (known?.kind === "governs-below") {
          await this.refreshBelow(known.folder);
        }
      })(),
    );
  }

  /** Files changed on disk (the client's watcher): the apps that hold them, or that they govern, are checked again. */
  filesChanged(uris: readonly string[]): void {
    for (const uri of uris) {
      if (this.documents.get(uri)) continue;
      const file = filePathOf(uri);
      if (file === undefined) continue;
      const dir = path.dirname(file);
      for (const app of this.apps.values()) {
        if (isInside(file, app.target.root) || isInside(app.target.root, dir)) {
          touch(app, file);
          this.guard(this.refresh(app));
        }
      }
    }
  }

  /** Settings changed: every open document is checked again (severities, globs and the config may differ). */
  settingsChanged(settings: ServerSettings): void {
    this.settings = settings;
    const open = this.documents.keys();
    this.owners.clear();
    this.knownOwners.clear();
    for (const app of this.apps.values()) this.forget(app);
    for (const uri of open) this.changed(uri);
  }

  /**
   * The app a document belongs to, checked with everything typed so far (for completion, hover,
   * actions and definitions, which must see the text the client sees).
   */
  async freshApp(uri: string): Promise<AppState | undefined> {
    const owner = await this.ownerOf(uri);
    if (owner.kind !== "app") return undefined;
    const app = owner.app;
    if (app.dirty || app.running || !app.analysis) await this.refresh(app);
    return app.analysis ? app : undefined;
  }

  /** Reports an error of a background check in the client's log, once per distinct message. */
  guard(work: Promise<unknown>): void {
    work.catch((error: unknown) => this.report(error));
  }

  report(error: unknown): void {
    if (this.disposed) return;
    const message = error instanceof Error ? error.message : String(error);
    this.connection.console.error(`caplint: ${message}`);
    // A broken config or manifest stops every check of the app: said once in the editor, not per keystroke.
    if (!this.shown.has(message) && this.shown.size < 100) {
      this.shown.add(message);
      void this.connection.window.showWarningMessage(`caplint: ${message}`);
    }
  }

  /** The client left: timers stop, and checks still running publish nothing. */
  dispose(): void {
    this.disposed = true;
    for (const timer of this.timers.values()) this.clock.clearTimeout(timer);
    this.timers.clear();
  }

  /** Publishes a document's findings, at most {@link MAX_FINDINGS_PER_DOCUMENT} of them; nothing once the client left. */
  private async send(
    uri: string,
    diagnostics: LspDiagnostic[],
    version?: number,
    total?: number,
  ): Promise<void> {
    if (this.disposed) return;
    try {
      await this.connection.sendDiagnostics({
        uri,
        ...(version === undefined ? {} : { version }),
        diagnostics: boundedFindings(diagnostics, total),
      });
    } catch (error) {
      // The connection closed under a check in progress: nobody is there to read it.
      if (!this.disposed) throw error;
    }
  }

  private async check(uri: string): Promise<void> {
    const owner = await this.ownerOf(uri);
    const document = this.documents.get(uri);
    const file = filePathOf(uri);
    if (owner.kind === "app") return this.refresh(owner.app);
    if (owner.kind === "governs-below") return this.refreshBelow(owner.folder);
    if (!document || file === undefined) return;
    const version = document.version;
    let found: Diagnostic[];
    let total: number | undefined;
    if (owner.kind === "recording") {
      const folder = this.folderOf(file);
      ({ diagnostics: found, total } = await analyzeRecording(
        file,
        document.getText(),
        owner.client,
        this.settingsFor(folder),
        folder,
        this.openTexts(),
        MAX_FINDINGS_PER_DOCUMENT,
        () => !this.disposed && this.documents.get(uri)?.version === version,
      ));
    } else if (owner.kind === "client-config")
      found = this.clientConfigFindings(file, document.getText());
    else return;
    // A newer edit is on its way: its own check publishes.
    if (this.documents.get(uri)?.version !== version) return;
    await this.send(uri, found.map(toLspDiagnostic), version, total);
  }

  private clientConfigFindings(file: string, text: string): Diagnostic[] {
    try {
      return analyzeClientConfig(file, text, this.folderOf(file), this.env);
    } catch (error) {
      // Not a client configuration (yet): one finding where the reader stopped, as `caplint mcp --servers` says it.
      const message = error instanceof Error ? error.message : String(error);
      const at = /^[^\n]*?:(\d+):(\d+): /.exec(message);
      const line = at ? Number(at[1]) : 1;
      const column = at ? Number(at[2]) : 1;
      return [
        {
          ruleId: "parse",
          severity: "error",
          message: at ? message.slice(at.index + at[0].length) : message.replace(/^[^:]*: /, ""),
          file,
          absolutePath: file,
          path: [],
          range: { start: { line, column }, end: { line, column: column + 1 } },
          offset: 0,
          length: 0,
        },
      ];
    }
  }

  /** Checks an app now (or once more after the check in progress), then publishes its findings. */
  refresh(app: AppState): Promise<void> {
    app.dirty = true;
    if (app.running) return app.running;
    const run = (async () => {
      try {
        while (app.dirty) {
          app.dirty = false;
          const changes = app.changes;
          app.changes = new Set();
          const started = this.clock.now();
          const analysis = await analyzeApp(
            app.target,
            this.openTexts(),
            this.settingsFor(app.folder),
            this.env,
            app.session,
            changes === "all" ? undefined : changes,
          );
          // Closed meanwhile: nothing to publish to.
          if (this.apps.get(app.key) !== app) return;
          app.analysis = analysis;
          app.lastCheckMs = this.clock.now() - started;
          this.logCheck(app, analysis, app.lastCheckMs);
          // An edit arrived during the check: these findings are already stale, the next check's are told.
          if (app.dirty) continue;
          await this.publish(app, analysis);
        }
      } finally {
        app.running = undefined;
      }
    })();
    app.running = run;
    return run;
  }

  /** One line in the client's log per check of an app: how long it took and how much of its frontend was parsed again. */
  private logCheck(app: AppState, analysis: AppAnalysis, ms: number): void {
    if (this.disposed) return;
    const scan = analysis.project.frontend;
    const frontend = scan
      ? `; frontend: ${scan.parsed} of ${scan.files.length} modules parsed, ${scan.resolved} ${scan.resolved === 1 ? "import" : "imports"} resolved`
      : "";
    this.connection.console.log(
      `caplint: ${path.relative(app.folder, app.target.root) || "."}: checked in ${Math.round(ms)} ms${rulesRun(analysis)}${frontend}`,
    );
  }

  private async refreshBelow(folder: string): Promise<void> {
    const below = [...this.apps.values()].filter((app) => isInside(app.target.root, folder));
    for (const app of below) touch(app, undefined);
    await Promise.all(below.map((app) => this.refresh(app)));
  }

  private async publish(app: AppState, analysis: AppAnalysis): Promise<void> {
    // By file first: a file's URI is made once, and a list is turned into the protocol's terms only
    // when it changed (most of an app's files keep theirs through an edit).
    const byFile = new Map<string, Diagnostic[]>();
    for (const d of analysis.result.diagnostics) {
      let list = byFile.get(d.absolutePath);
      if (!list) byFile.set(d.absolutePath, (list = []));
      list.push(d);
    }
    const byUri = new Map<string, Diagnostic[]>();
    for (const [file, list] of byFile) byUri.set(pathToFileURL(file).href, list);
    for (const uri of app.told.keys()) if (!byUri.has(uri)) byUri.set(uri, []);
    // Open documents of the app with no findings are said to be clean (a client may show the last list otherwise).
    for (const uri of this.documents.keys())
      if (!byUri.has(uri) && (await this.owners.get(uri))?.kind === "app") byUri.set(uri, []);
    for (const [uri, findings] of byUri) {
      const owner = await this.owners.get(uri);
      if (owner && (owner.kind !== "app" || owner.app !== app) && findings.length === 0) continue;
      const said = findings.map(toldKey).join("\n");
      if (app.told.get(uri) === said) continue;
      app.told.set(uri, said);
      await this.send(uri, findings.map(toLspDiagnostic));
    }
  }

  private forget(app: AppState): void {
    this.apps.delete(app.key);
    for (const [uri, said] of app.told) if (said !== "") void this.send(uri, []);
    app.told.clear();
    app.analysis = undefined;
  }

  private async hasOpenDocuments(app: AppState): Promise<boolean> {
    for (const uri of this.documents.keys()) {
      const owner = await this.owners.get(uri);
      if (owner?.kind === "app" && owner.app === app) return true;
    }
    return false;
  }

  /** Every open buffer's text by absolute path: what the checks read instead of the disk. */
  private openTexts(): Map<string, string> {
    const texts = new Map<string, string>();
    for (const document of this.documents.all()) {
      const file = filePathOf(document.uri);
      if (file !== undefined) texts.set(file, document.getText());
    }
    return texts;
  }

  ownerOf(uri: string): Promise<Owner> {
    let owner = this.owners.get(uri);
    if (!owner) {
      const found: Promise<Owner> = this.classify(uri)
        .catch((error: unknown): Owner => {
          this.report(error);
          return { kind: "none" };
        })
        .then((known) => {
          if (this.owners.get(uri) === found) this.knownOwners.set(uri, known);
          return known;
        });
      owner = found;
      this.owners.set(uri, owner);
    }
    return owner;
  }

  private async classify(uri: string): Promise<Owner> {
    const file = filePathOf(uri);
    if (file === undefined) return { kind: "none" };
    const folder = this.folderOf(file);
    const relative = path.relative(folder, file).split(path.sep).join("/");
    if (file.endsWith(".jsonl")) {
      if (
        this.settings.eventsClientInclude.some((glob) => minimatch(relative, glob, { dot: true }))
      )
        return { kind: "recording", client: true };
      if (this.settings.eventsInclude.some((glob) => minimatch(relative, glob, { dot: true })))
        return { kind: "recording", client: false };
      return { kind: "none" };
    }
    if (CLIENT_CONFIG.test(file)) return { kind: "client-config" };
    const boundary = this.folders.some((f) => isInside(file, f)) ? folder : path.parse(file).root;
    if (isFrontendFile(file) && !file.split(path.sep).includes("node_modules")) {
      // A page or module of an app's frontend: its calls are judged against the app's capabilities.
      const srcTauri = await enclosingApp(file, boundary);
      if (
        srcTauri === undefined ||
        (path.basename(srcTauri) === "src-tauri" && isInside(file, srcTauri))
      )
        return { kind: "none" };
      const root = path.basename(srcTauri) === "src-tauri" ? path.dirname(srcTauri) : srcTauri;
      return { kind: "app", app: this.app(srcTauri, { root, srcTauri }, folder) };
    }
    if (!APP_FILE.test(file)) return { kind: "none" };
    const srcTauri = await enclosingApp(file, boundary);
    if (srcTauri !== undefined) {
      const root = path.basename(srcTauri) === "src-tauri" ? path.dirname(srcTauri) : srcTauri;
      return { kind: "app", app: this.app(srcTauri, { root, srcTauri }, folder) };
    }
    const name = path.basename(file);
    if (name === "Cargo.toml" || name === "Cargo.lock" || name === "caplint.config.json")
      return { kind: "governs-below", folder: path.dirname(file) };
    // A capability file outside any app is checked alone, as `caplint check FILE` checks it.
    if (/\.(json|toml)$/.test(file) && path.basename(path.dirname(file)) === "capabilities") {
      return {
        kind: "app",
        app: this.app(file, { root: path.dirname(file), paths: [file] }, folder),
      };
    }
    return { kind: "none" };
  }

  private app(key: string, target: AppTarget, folder: string): AppState {
    let app = this.apps.get(key);
    if (!app)
      this.apps.set(
        key,
        (app = {
          key,
          target,
          folder,
          dirty: true,
          session: new CheckSession(),
          changes: "all",
          told: new Map(),
        }),
      );
    return app;
  }

  /**
   * The settings for files of a workspace folder, with `config` as an absolute path inside it. A
   * repository's .vscode/settings.json sets it, so a path out of the folder (`..`, absolute, or through
   * a link) is refused, said once, and never read: no file outside the repository decides a verdict or
   * has its keys shown. The config is then found upward from each app, as without the setting.
   */
  settingsFor(folder: string): ServerSettings {
    const { config, ...rest } = this.settings;
    if (config === undefined) return this.settings;
    const file = path.resolve(folder, config);
    if (isInsideReally(file, folder)) return { ...rest, config: file };
    const shown = JSON.stringify(config.length > 200 ? `${config.slice(0, 200)}…` : config);
    this.report(
      new Error(
        `caplint.config: ${shown} is outside the workspace folder ${folder}; it is not read (the config is found upward from each app instead)`,
      ),
    );
    return rest;
  }

  /** The workspace folder holding a file (the innermost), else the file's own folder. */
  folderOf(file: string): string {
    let best: string | undefined;
    for (const folder of this.folders)
      if (isInside(file, folder) && (best === undefined || folder.length > best.length))
        best = folder;
    return best ?? path.dirname(file);
  }
}

/** Past this many findings a document gets one summary instead of the rest: an editor shows no more, and memory stays bounded. */
export const MAX_FINDINGS_PER_DOCUMENT = 1_000;

/** The first findings of a document and, past the bound, one saying how many more `caplint` on the command line lists. */
export function boundedFindings(
  diagnostics: LspDiagnostic[],
  total = diagnostics.length,
): LspDiagnostic[] {
  if (total <= MAX_FINDINGS_PER_DOCUMENT) return diagnostics;
  const shown = diagnostics.slice(0, MAX_FINDINGS_PER_DOCUMENT);
  const at = shown[shown.length - 1]?.range ?? {
    start: { line: 0, character: 0 },
    end: { line: 0, character: 0 },
  };
  shown.push({
    range: at,
    severity: DiagnosticSeverity.Information,
    source: "caplint",
    code: "too-many-findings",
    message: `${total - MAX_FINDINGS_PER_DOCUMENT} more findings in this file are not shown (the editor gets the first ${MAX_FINDINGS_PER_DOCUMENT}); run caplint on the command line for all of them`,
  });
  return shown;
}

/** Everything of a finding that its protocol form ({@link toLspDiagnostic}) shows, as one line of text. */
function toldKey(d: Diagnostic): string {
  const { start, end } = d.range;
  return JSON.stringify([
    d.ruleId,
    d.severity,
    d.messageId ?? null,
    d.message,
    d.hint ?? null,
    start.line,
    start.column,
    end.line,
    end.column,
  ]);
}

/** "; rules: 12 run (3 over 1 file), 25 kept": what the check ran again and what kept its findings. */
function rulesRun({ work }: AppAnalysis): string {
  if (!work) return "";
  const partial = [...work.ran.values()].filter((files) => files !== "*");
  const files = new Set(partial.flat()).size;
  const over = partial.length
    ? ` (${partial.length} over ${files} ${files === 1 ? "file" : "files"})`
    : "";
  return `; rules: ${work.ran.size} run${over}, ${work.replayed.length} kept`;
}

/** Notes a changed file of an app for its next check; undefined: anything may have changed (a file above the app). */
function touch(app: AppState, file: string | undefined): void {
  if (file === undefined) app.changes = "all";
  else if (app.changes !== "all") app.changes.add(file);
}

export function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** Inside the folder both as written and once links are followed (a file that does not exist yet: its folder's links). */
function isInsideReally(file: string, folder: string): boolean {
  if (!isInside(file, folder)) return false;
  const real = (target: string): string => {
    try {
      return realpathSync(target);
    } catch {
      const parent = path.dirname(target);
      return parent === target ? target : path.join(real(parent), path.basename(target));
    }
  };
  return isInside(real(file), real(folder));
}

function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
