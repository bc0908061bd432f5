import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * Reads a YAML file with the js-yaml already in node_modules (ajv-cli, a dev dependency, brings it);
 * no YAML package is added for tests alone. js-yaml 3 calls its safe loader `safeLoad`, 4 `load`.
 */
interface JsYaml {
  safeLoad?: (text: string, options?: { filename?: string }) => unknown;
  load: (text: string, options?: { filename?: string }) => unknown;
}

const jsYaml = createRequire(import.meta.url)("js-yaml") as JsYaml;

export function readYaml(file: string): unknown {
  const text = readFileSync(file, "utf8");
  return (jsYaml.safeLoad ?? jsYaml.load)(text, { filename: file });
}
