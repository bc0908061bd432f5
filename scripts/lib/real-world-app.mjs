// Shared by the benchmark and the linearity test: a workload made of real capability files.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * An app made of `copies` copies of every capability file of the real-world corpus (fixtures/real-world),
 * with capability identifiers made unique per copy: scoped entries, platform lists, third-party plugins
 * and TOML as real apps write them. `build-truth/` stays out: the workload is the one the performance budgets
 * were measured on.
 */
export function realWorldApp(dir, copies) {
  const corpus = path.join(ROOT, "fixtures", "real-world");
  const files = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (full !== path.join(corpus, "build-truth")) walk(full);
      } else if (
        /\.(json|toml)$/.test(entry.name) &&
        full.includes(`${path.sep}capabilities${path.sep}`)
      )
        files.push(full);
    }
  };
  walk(corpus);
  files.sort();
  const capabilities = path.join(dir, "src-tauri", "capabilities");
  mkdirSync(capabilities, { recursive: true });
  writeFileSync(
    path.join(dir, "src-tauri", "tauri.conf.json"),
    JSON.stringify({ identifier: "bench.real", app: { windows: [{ label: "main" }] } }),
  );
  const written = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const file of files) {
      const rename = (match, before, id, after) =>
        id.includes(":") ? match : `${before}${id}-copy${copy}${after}`;
      let text = readFileSync(file, "utf8");
      text = file.endsWith(".json")
        ? text.replace(/("identifier"\s*:\s*")([^"]*)(")/g, rename)
        : text.replace(/^(identifier\s*=\s*")([^"]*)(")/gm, rename);
      const target = path.join(
        capabilities,
        `copy${copy}-${path.relative(corpus, file).split(path.sep).join("__")}`,
      );
      writeFileSync(target, text);
      written.push(target);
    }
  }
  return written;
}
