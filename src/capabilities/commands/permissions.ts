import type { Command } from "commander";
import { EXIT_OK } from "../../core/exit-codes.js";
import type { Catalog } from "../catalog/catalog.js";
import { loadBuiltinManifests } from "../catalog/builtin.js";
import {
  builtinsAt,
  historyCatalogOf,
  isCheckableVersion,
  loadVersionHistory,
} from "../catalog/versions.js";
import { loadProject } from "../load/project.js";
import { listPermissions } from "../queries/permissions.js";
import { renderPermissionsJson, renderPermissionsText } from "../render/permissions.js";
import { nearest, quoteList } from "../../core/did-you-mean.js";
import type { MainOptions } from "../../core/io.js";
import { UsageError } from "../../core/errors.js";
import { applyConfig, capabilitySettings, loadOptionsFrom } from "../check-run.js";
import {
  addQueryOptions,
  answerPaint,
  singlePlatform,
  type QueryOptions,
} from "./query-options.js";
import type { SetExitCode } from "../../core/command.js";
import type { RuleMeta } from "../../core/lint/rule.js";

interface PermissionsOptions extends QueryOptions {
  filter?: string;
  release?: string;
}

export function registerPermissions(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  allRules: ReadonlyMap<string, RuleMeta>,
): void {
  const command = program
    .command("permissions")
    .description("known permissions and sets, with descriptions and the commands each expands to")
    .argument("[plugin]", "one plugin key: fs, core:window, __app-acl__ …")
    .option("--filter <text>", "only identifiers, descriptions or commands containing this text")
    .option(
      "--release <version>",
      "the catalog of this release of the plugin (of Tauri for core:*), e.g. 2.0.1; also written --version",
    );
  // Positional paths would clash with the plugin argument, so the options are borrowed without them.
  for (const option of addQueryOptions(program.createCommand("permissions"), ["text", "json"])
    .options)
    command.addOption(option);
  command.action(async (plugin: string | undefined, options: PermissionsOptions) => {
    // The app here (or --app) contributes its manifests and permissions; elsewhere the built-in catalog answers.
    const project = await loadProject({
      ...applyConfig(
        loadOptionsFrom([], options, io.cwd, io.env ?? {}),
        await capabilitySettings(options, io.cwd, allRules),
      ),
      discover: false,
    });
    if (plugin !== undefined && !project.catalog.has(plugin)) {
      const close = nearest(plugin, project.catalog.keys(), 3);
      throw new UsageError(
        `unknown plugin "${plugin}"${close.length ? `; did you mean ${quoteList(close)}?` : ""} (known: caplint permissions --format json)`,
      );
    }
    if (options.release !== undefined) await useRelease(project.catalog, plugin, options.release);
    let listing = listPermissions(project.catalog, singlePlatform(options), plugin);
    if (options.filter) {
      const needle = options.filter.toLowerCase();
      listing = listing.filter((p) =>
        [p.identifier, p.description, ...p.allows, ...p.denies].some((text) =>
          text.toLowerCase().includes(needle),
        ),
      );
    }
    io.stdout.write(
      options.format === "json"
        ? renderPermissionsJson(listing)
        : renderPermissionsText(listing, await answerPaint(options, io)),
    );
    setExitCode(EXIT_OK);
  });
}

/** Narrows a built-in plugin (or the host's core areas) to the catalog of one release. */
async function useRelease(
  catalog: Catalog,
  plugin: string | undefined,
  version: string,
): Promise<void> {
  if (plugin === undefined)
    throw new UsageError(
      `--version ${version}: name the plugin, e.g. caplint permissions fs --version ${version}`,
    );
  const history = await loadVersionHistory();
  const name = historyCatalogOf(plugin);
  if (!history.has(name))
    throw new UsageError(
      `--version ${version}: "${plugin}" is not an official plugin, so caplint has no release history for it`,
    );
  if (!isCheckableVersion(version)) {
    const versions = history.versions(name);
    throw new UsageError(
      `--version ${version}: not a 2.x release (${history.crateOf(name)} has ${versions[0]} … ${versions[versions.length - 1]})`,
    );
  }
  const builtins = await loadBuiltinManifests();
  const released = builtinsAt(
    builtins,
    history,
    new Map([[name, { crate: history.crateOf(name)!, version, source: "Cargo.lock" as const }]]),
  );
  const keys = Object.keys(builtins).filter((key) => historyCatalogOf(key) === name);
  catalog.add(Object.fromEntries(keys.map((key) => [key, released[key]!])), { origin: "builtin" });
}
