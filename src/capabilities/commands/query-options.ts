import { Option, type Command } from "commander";
import { TARGETS } from "../model/types.js";
import { runningPlatform } from "../model/platform.js";
import { loadProject, type Project } from "../load/project.js";
import { knownWindowLabels } from "../queries/project-model.js";
import { nearest, quoteLabel, quoteList } from "../../core/did-you-mean.js";
import {
  parsePlatforms,
  PlatformNameError,
  resolvePlatformGroups,
  type PlatformGroup,
} from "../queries/platforms.js";
import type { Origin } from "../engine/index.js";
import { UsageError } from "../../core/errors.js";
import { isPlainObject } from "../../core/json.js";
import type { MainOptions } from "../../core/io.js";
import { addInputOptions, configOption } from "./options.js";
import { applyConfig, loadOptionsFrom, withFrontendScan, type InputOptions } from "../check-run.js";
import type { Settings } from "../../core/settings.js";
import { addColorOptions } from "../../core/options.js";
import { makePaint } from "../../core/reporters/paint.js";
import { NO_PAINT, type Paint } from "../../core/terminal-text.js";

export interface QueryOptions extends InputOptions {
  /** Platforms asked with `--platform` (default: all five). */
  platform?: string[];
  format: string;
  /** `--config FILE`: its `app` and `manifests` say which app the answer is about. */
  config?: string;
  /** `--color` / `--no-color` (commands with a text answer). */
  color?: boolean;
}

/** `--platform`, case-insensitive and comma-separated, for every command that takes one. */
export function platformOption(description: string): Option {
  return new Option(
    "--platform <targets>",
    `${description} (${TARGETS.join(", ")}; case-insensitive, comma-separated)`,
  ).argParser(platformArgument);
}

function platformArgument(value: string, previous: string[] | undefined): string[] {
  try {
    return [...new Set([...(previous ?? []), ...parsePlatforms(value)])];
  } catch (error) {
    if (error instanceof PlatformNameError) throw new UsageError(error.message);
    throw error;
  }
}

/** Inputs, `--config`, `--platform` and `--format` for the query commands; `--color`/`--no-color` when one format is text. */
export function addQueryOptions(command: Command, formats: readonly string[]): Command {
  const withOptions = addInputOptions(
    command.argument("[paths...]", "capability files or folders (default: the app here)"),
  )
    .addOption(configOption())
    .addOption(
      platformOption("answer for these platforms only (default: all, showing where they differ)"),
    )
    .addOption(
      new Option("-f, --format <format>", "output format").choices(formats).default(formats[0]),
    );
  return formats.includes("text") ? addColorOptions(withOptions) : withOptions;
}

/**
 * The colours of a text answer on standard output, as `check` decides them (--color/--no-color,
 * NO_COLOR/FORCE_COLOR, a terminal); JSON and CSV answers are never coloured.
 */
export async function answerPaint(
  options: Pick<QueryOptions, "color" | "format">,
  io: MainOptions,
  printsText = options.format === "text",
): Promise<Paint> {
  return printsText ? makePaint(options.color, io.stdout.isTTY, io.env ?? {}) : NO_PAINT;
}

/** The platforms a query answers for. */
export function askedPlatforms(options: Pick<QueryOptions, "platform">): string[] {
  return options.platform?.length ? options.platform : [...TARGETS];
}

/** The project, resolved for every platform asked, platforms that resolve alike grouped. */
export async function loadGroups(
  paths: string[],
  options: QueryOptions,
  io: MainOptions,
  settings: Settings,
  lintedRules?: ReadonlySet<string>,
): Promise<{ project: Project; asked: string[]; groups: PlatformGroup[] }> {
  // The config's app and manifests apply as in `check`, so a query answers for the app `check` checks.
  const project = await loadProjectFor(paths, options, io, settings, lintedRules);
  const asked = askedPlatforms(options);
  return { project, asked, groups: resolvePlatformGroups(project, asked) };
}

const LISTED_WINDOWS = 10;

/**
 * `--window` must name a window something knows: tauri.conf.json, a capability's pattern, or the app's
 * sources (a window made in code, or a label computed there, which may be anything). A typo would
 * otherwise answer "0 commands" with exit 0, which reads as "safe".
 */
export function requireKnownWindow(
  project: Project,
  groups: readonly PlatformGroup[],
  window: string,
  webview = window,
): void {
  const labels = knownWindowLabels(project);
  if (labels.includes(window)) return;
  if (
    groups.some((group) =>
      group.model.capabilities.some((capability) => capability.matchesLabels(window, webview)),
    )
  )
    return;
  // A label computed in code (`format!("reader-{}", id)`) may be any window starting with its literal part.
  if (project.codeWindows?.prefixes.some(({ label: prefix }) => window.startsWith(prefix))) return;
  const listed = labels.length
    ? quoteList(labels.slice(0, LISTED_WINDOWS), "and", quoteLabel) +
      (labels.length > LISTED_WINDOWS ? ", …" : "")
    : "none";
  const close = nearest(window, labels, 3);
  throw new UsageError(
    `--window ${window.length > 100 ? `${window.slice(0, 100)}… (${window.length.toLocaleString("en-US")} characters)` : window}: no window in tauri.conf.json, no capability pattern and no window made in the app's sources has this label (known windows: ${listed})${close.length ? `; did you mean ${quoteList(close, "or", quoteLabel)}?` : ""}`,
  );
}

/** For `permissions`, which answers for one platform: `--platform` or the platform caplint runs on. */
export function singlePlatform(options: Pick<QueryOptions, "platform">): string {
  if ((options.platform?.length ?? 0) > 1)
    throw new UsageError("--platform: this command answers for one platform; name one");
  return options.platform?.[0] ?? runningPlatform();
}

/** The project as `check` loads it (the config's app and manifests applied), for queries that resolve it themselves. */
/** `lintedRules`: the rules a command that also lints will run, so the frontend is scanned when one of them judges it, as in `check`. */
export async function loadProjectFor(
  paths: string[],
  options: QueryOptions,
  io: MainOptions,
  settings: Settings,
  lintedRules?: ReadonlySet<string>,
): Promise<Project> {
  const load = applyConfig(loadOptionsFrom(paths, options, io.cwd, io.env ?? {}), settings);
  return loadProject(lintedRules ? withFrontendScan(load, lintedRules) : load);
}

/** `--url` to an origin: the app's own URLs (and its dev server) are local, like the host decides. */
export function originOf(url: string | undefined, project: Project): Origin {
  if (url === undefined || url === "local") return { kind: "local" };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(
      `--url ${url}: not a URL (write it in full, e.g. https://example.com/page)`,
    );
  }
  const href = parsed.href;
  if (
    parsed.protocol === "tauri:" ||
    parsed.protocol === "host:" ||
    /^https?:\/\/(tauri|host)\.localhost(\/|$)/.test(href)
  )
    return { kind: "local" };
  const build = isPlainObject(project.config?.document.value)
    ? project.config.document.value.build
    : undefined;
  const devUrl =
    isPlainObject(build) && typeof build.devUrl === "string" ? build.devUrl : undefined;
  if (devUrl && href.startsWith(new URL(devUrl).href.replace(/\/$/, ""))) return { kind: "local" };
  return { kind: "remote", url: href };
}
