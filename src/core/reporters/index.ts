import type { Reporter } from "./types.js";

/** Reporters load on demand: a run pays only for the format it prints. */
export const REPORTERS = {
  stylish: () => import("./stylish.js"),
  compact: () => import("./compact.js"),
  json: () => import("./json.js"),
  sarif: () => import("./sarif.js"),
  github: () => import("./github.js"),
} satisfies Record<string, () => Promise<{ default: Reporter }>>;

export type ReporterName = keyof typeof REPORTERS;
export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];

export async function loadReporter(name: ReporterName): Promise<Reporter> {
  return (await REPORTERS[name]()).default;
}
