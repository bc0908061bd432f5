import type { Command } from "commander";
import { EXIT_OK } from "../../core/exit-codes.js";
import { normalize } from "../engine/index.js";
import type { MainOptions } from "../../core/io.js";
import {
  addQueryOptions,
  askedPlatforms,
  loadProjectFor,
  type QueryOptions,
} from "./query-options.js";
import { resolveProject } from "../queries/project-model.js";
import { manifestUnionNotes, modelChains } from "../queries/manifest-union.js";
import { capabilitySettings } from "../check-run.js";
import type { SetExitCode } from "../../core/command.js";
import type { RuleMeta } from "../../core/lint/rule.js";

export function registerResolve(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  allRules: ReadonlyMap<string, RuleMeta>,
): void {
  const command = program
    .command("resolve")
    .description(
      'the whole resolved model, as Tauri computes it (allowed, denied, global scopes), for every platform unless --platform: one platform prints its model, several {"platforms": [one model each]}',
    );
  addQueryOptions(command, ["json"]).action(async (paths: string[], options: QueryOptions) => {
    const project = await loadProjectFor(
      paths,
      options,
      io,
      await capabilitySettings(options, io.cwd, allRules),
    );
    const resolved = askedPlatforms(options).map((platform) => resolveProject(project, platform));
    const models = resolved.map((model) => ({ platform: model.platform, ...normalize(model) }));
    const notes = manifestUnionNotes(project.manifestDifferences, function* () {
      for (const model of resolved) yield* modelChains(model);
    });
    // One platform keeps the upstream conformance format, so its fixtures compare as they are; the note is
    // there only when a committed manifest disagrees with the catalog, which no conformance fixture has.
    const union = notes.length ? { manifestUnion: notes } : {};
    io.stdout.write(
      JSON.stringify(
        models.length === 1 ? { ...models[0], ...union } : { platforms: models, ...union },
        null,
        2,
      ) + "\n",
    );
    setExitCode(EXIT_OK);
  });
}
