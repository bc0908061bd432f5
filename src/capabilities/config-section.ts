import path from "node:path";
import type { ConfigSection } from "../core/config.js";
import { FatalError } from "../core/errors.js";
import { pathKind } from "../core/source/read.js";
import type { FrontendConfig } from "./frontend/scan.js";

/** What caplint.config.json says about capability files: inputs beside the command line's. */
export interface CapabilityConfig {
  /** Generated acl-manifests.json files to read too (absolute paths). */
  manifests: string[];
  /** The app folder (absolute path), when the command line names no paths and no `--app`. */
  app?: string;
  /** Where the app's frontend is and what it loads (the frontend scan: issue 30). */
  frontend?: FrontendConfig;
}

/** The capabilities domain's keys in caplint.config.json; paths are relative to the config's folder. */
export const CAPABILITY_CONFIG: ConfigSection<CapabilityConfig> = {
  properties: {
    manifests: {
      description: "Generated acl-manifests.json files to read, in addition to --manifest.",
      type: "array",
      items: { type: "string", minLength: 1 },
    },
    app: {
      description: "The app folder, used when no paths or --app are given.",
      type: "string",
      minLength: 1,
    },
    frontend: {
      description:
        "The app's frontend, as the frontend rules read it (found from package.json and tauri.conf.json when absent).",
      type: "object",
      additionalProperties: false,
      properties: {
        root: {
          description: "The frontend's folder (relative to the config's folder).",
          type: "string",
          minLength: 1,
        },
        entries: {
          description:
            "Entry files or HTML pages the windows load (relative to the frontend's folder); replaces the ones found.",
          type: "array",
          items: { type: "string", minLength: 1 },
        },
        ignore: {
          description:
            "Globs of files not to read (relative to the frontend's folder): generated code, tests.",
          type: "array",
          items: { type: "string", minLength: 1 },
        },
        windows: {
          description:
            "Per window label, the entry files or page it loads (relative to the frontend's folder): tells windows apart when their urls do not.",
          type: "object",
          additionalProperties: { type: "array", items: { type: "string", minLength: 1 } },
        },
      },
    },
  },
  async read(values, place) {
    const config: CapabilityConfig = {
      manifests: ((values.manifests as string[] | undefined) ?? []).map((m) =>
        path.resolve(place.folder, m),
      ),
    };
    const app = values.app as string | undefined;
    if (app !== undefined) {
      config.app = path.resolve(place.folder, app);
      // A missing app folder is fatal at once: checking the working directory instead would pass silently.
      if ((await pathKind(config.app)) !== "directory")
        throw new FatalError(
          `${place.at("app")}: "app": ${app} is not a folder (relative to the config's folder)`,
        );
      // Blamed here, on the config's key: the load would name --app, which the command line does not have.
      const { findAppFolder, notOneApp, NOT_AN_APP } = await import("./load/project.js");
      const found = await findAppFolder(config.app);
      const notOne = notOneApp(found, 'set "app" to one of them');
      if (notOne !== undefined)
        throw new FatalError(`${place.at("app")}: "app": ${app}: ${notOne}`);
      if (found.srcTauri === undefined)
        throw new FatalError(`${place.at("app")}: "app": ${app} is ${NOT_AN_APP}`);
    }
    if (values.frontend !== undefined) {
      const given = values.frontend as FrontendConfig;
      config.frontend = {
        ...given,
        ...(given.root !== undefined ? { root: path.resolve(place.folder, given.root) } : {}),
      };
    }
    return config;
  },
};
