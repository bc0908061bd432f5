// Shared by the benchmark and the linearity test: a monorepo of real apps, copied from the corpus.
import { cpSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const CORPUS = path.join(ROOT, "fixtures", "real-world");

/** The corpus's app folders (the first set, second-set and build-truth), in name order. */
export function corpusApps() {
  const apps = [];
  for (const set of ["", "second-set", "build-truth"]) {
    const folder = path.join(CORPUS, set);
    for (const name of readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      if (name !== "second-set" && name !== "build-truth" && statSync(full).isDirectory())
        apps.push(full);
    }
  }
  return apps;
}

/**
 * A monorepo root holding `count` apps, the corpus's apps (or `apps`) taken in turn (each copied whole:
 * its capability files, configs, Cargo files and committed manifests), so every app pays what a real
 * one does.
 */
export function monorepo(dir, count, apps = corpusApps()) {
  for (let i = 0; i < count; i++) {
    const app = apps[i % apps.length];
    cpSync(app, path.join(dir, `app-${String(i).padStart(3, "0")}-${path.basename(app)}`), {
      recursive: true,
    });
  }
}
