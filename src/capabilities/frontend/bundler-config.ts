/**
 * What the bundler's config says about where the frontend's code is, when it says it statically: Vite's
 * `root`, `resolve.alias` and `build.rollupOptions.input` (multi-page apps), read from the syntax tree of
 * `vite.config.*` without running it. Values built at run time are not guessed; SvelteKit's `$lib` and
 * Nuxt's `~`/`@` are their frameworks' fixed aliases.
 */
import path from "node:path";
import { readdirSync } from "node:fs";
import { readTextFile } from "../../core/source/read.js";

export interface BundlerConfig {
  /** The folder HTML pages and `/`-rooted script paths are relative to. */
  root: string;
  alias: Record<string, string[]>;
  /** HTML pages the build takes as inputs. */
  inputs: string[];
  /** Where the build writes the bundle (`build.outDir`), when the config says it plainly. */
  outDir?: string;
}

interface Node {
  type: string;
  [key: string]: unknown;
}
interface Parser {
  parseSync(
    filename: string,
    text: string,
    options: { lang: string; sourceType: "module" },
  ): { program: unknown; errors: Array<{ severity: string }> };
}

const CONFIG_NAMES = [
  "vite.config.ts",
  "vite.config.mts",
  "vite.config.js",
  "vite.config.mjs",
  "electron.vite.config.ts",
];

export function readBundlerConfig(root: string, maxBytes: number, parser: Parser): BundlerConfig {
  const config: BundlerConfig = { root, alias: {}, inputs: [] };
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return config;
  }
  if (names.includes("svelte.config.js")) config.alias["$lib"] = [path.join(root, "src", "lib")];
  if (names.some((name) => name.startsWith("nuxt.config."))) {
    config.alias["~"] = [root];
    config.alias["@"] = [root];
  }
  const name = CONFIG_NAMES.find((candidate) => names.includes(candidate));
  if (!name) return config;
  const file = path.join(root, name);
  const read = readTextFile(file, maxBytes);
  if (!read.ok) return config;
  const parsed = parser.parseSync(name, read.text, {
    lang: name.endsWith("ts") ? "ts" : "js",
    sourceType: "module",
  });
  if (parsed.errors.some((error) => error.severity === "Error")) return config;
  const properties = new Map<string, Node[]>();
  collectProperties(parsed.program as Node, properties, 0);
  const dir = path.dirname(file);
  const rootValue = properties
    .get("root")
    ?.map((node) => pathValue(node, dir))
    .find((value) => value !== undefined);
  if (rootValue) config.root = path.resolve(dir, rootValue);
  for (const node of properties.get("alias") ?? []) {
    if (node.type === "ObjectExpression") {
      for (const property of node.properties as Node[]) {
        if (property.type !== "Property") continue;
        const key = keyName(property.key as Node);
        const value = pathValue(property.value as Node, dir);
        if (key !== undefined && value !== undefined)
          config.alias[key] = [absoluteAlias(value, dir)];
      }
    } else if (node.type === "ArrayExpression") {
      for (const element of node.elements as Array<Node | null>) {
        if (element?.type !== "ObjectExpression") continue;
        const fields = new Map(
          (element.properties as Node[])
            .filter((p) => p.type === "Property")
            .map((p) => [keyName(p.key as Node), p.value as Node]),
        );
        const find = fields.get("find");
        const replacement = fields.get("replacement");
        const key =
          find?.type === "Literal" && typeof find.value === "string" ? find.value : undefined;
        const value = replacement ? pathValue(replacement, dir) : undefined;
        if (key !== undefined && value !== undefined)
          config.alias[key] = [absoluteAlias(value, dir)];
      }
    }
  }
  const outDir = properties
    .get("outDir")
    ?.map((node) => pathValue(node, dir))
    .find((value) => value !== undefined);
  if (outDir !== undefined) config.outDir = path.resolve(config.root, outDir);
  for (const node of properties.get("input") ?? []) {
    const values =
      node.type === "ObjectExpression"
        ? (node.properties as Node[]).map((p) => p.value as Node)
        : node.type === "ArrayExpression"
          ? (node.elements as Node[])
          : [node];
    for (const value of values) {
      const page = value ? pathValue(value, dir) : undefined;
      if (page !== undefined && /\.html?$/i.test(page))
        config.inputs.push(path.resolve(config.root, page));
    }
  }
  return config;
}

/** An alias to a bare package stays bare; a path becomes absolute. */
function absoluteAlias(value: string, dir: string): string {
  return value.startsWith(".") || path.isAbsolute(value) ? path.resolve(dir, value) : value;
}

function collectProperties(node: Node, into: Map<string, Node[]>, depth: number): void {
  if (depth > 200) return;
  if (node.type === "Property" && !node.computed) {
    const key = keyName(node.key as Node);
    if (key !== undefined) {
      const list = into.get(key) ?? [];
      list.push(node.value as Node);
      into.set(key, list);
    }
  }
  for (const key in node) {
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value)
        if (item && typeof item === "object" && typeof (item as Node).type === "string")
          collectProperties(item as Node, into, depth + 1);
    } else if (value && typeof value === "object" && typeof (value as Node).type === "string")
      collectProperties(value as Node, into, depth + 1);
  }
}

function keyName(key: Node): string | undefined {
  if (key.type === "Identifier") return key.name as string;
  if (key.type === "Literal" && typeof key.value === "string") return key.value;
  return undefined;
}

/**
 * A path the config builds from literals: `"./src"`, `path.resolve(__dirname, "src")`, `resolve("src")`,
 * `fileURLToPath(new URL("./src", import.meta.url))`, `` `${__dirname}/src` ``. Anything else: undefined.
 */
function pathValue(node: Node, dir: string): string | undefined {
  switch (node.type) {
    case "Literal":
      return typeof node.value === "string" ? node.value : undefined;
    case "Identifier":
      return node.name === "__dirname" ? dir : undefined;
    case "TemplateLiteral": {
      const quasis = (node.quasis as Node[]).map((q) => (q.value as { cooked: string }).cooked);
      const expressions = (node.expressions as Node[]).map((e) => pathValue(e, dir));
      if (expressions.some((e) => e === undefined)) return undefined;
      return quasis.reduce((text, quasi, i) => text + quasi + (expressions[i] ?? ""), "");
    }
    case "CallExpression": {
      const callee = node.callee as Node;
      const name =
        callee.type === "Identifier"
          ? (callee.name as string)
          : callee.type === "MemberExpression"
            ? keyName(callee.property as Node)
            : undefined;
      const args = (node.arguments as Node[]).map((arg) => pathValue(arg, dir));
      if (
        (name === "resolve" || name === "join") &&
        args.length &&
        args.every((a) => a !== undefined)
      )
        return path.resolve(dir, ...args);
      if (name === "cwd") return dir;
      if (name === "fileURLToPath" && args[0] !== undefined) return args[0];
      return undefined;
    }
    case "NewExpression": {
      const callee = node.callee as Node;
      const args = node.arguments as Node[];
      if (
        callee.type === "Identifier" &&
        callee.name === "URL" &&
        args[0]?.type === "Literal" &&
        typeof args[0].value === "string"
      )
        return path.resolve(dir, args[0].value);
      return undefined;
    }
    case "MemberExpression":
      return keyName(node.property as Node) === "pathname"
        ? pathValue(node.object as Node, dir)
        : undefined;
    default:
      return undefined;
  }
}
