/**
 * The shape of the house (docs/architecture.md), checked on the import graph of src/: no circles,
 * no import that runs back up a floor, no domain importing another, and a core that names no domain
 * and no rule. Type-only imports count: a circle of types is still a circle for the reader.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { DOMAINS, RULES } from "../src/registry.js";
import { ROOT } from "./helpers/run.js";

const SRC = path.join(ROOT, "src");

/** A TypeScript text without its comments (strings and identifiers kept), as the printer writes it. */
function codeOf(text: string): string {
  return ts
    .createPrinter({ removeComments: true })
    .printFile(ts.createSourceFile("code.ts", text, ts.ScriptTarget.Latest));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g;

/** Each file of src/ (relative POSIX path) and the files of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    const targets: string[] = [];
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]!;
      if (!specifier.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, ".ts");
      targets.push(path.relative(SRC, target).split(path.sep).join("/"));
    }
    graph.set(path.relative(SRC, file).split(path.sep).join("/"), targets);
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) !== indices.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node))
      found.push(component.sort());
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

const DOMAIN_FOLDERS = DOMAINS.map((domain) => domain.name);

/** The floor of a file: core 1, a domain 2, the registry 3, the library entry 4, the language server 5, the CLI 6. */
function floorOf(file: string): number {
  const top = file.split("/")[0]!;
  if (top === "core") return 1;
  if (DOMAIN_FOLDERS.includes(top)) return 2;
  if (file === "registry.ts") return 3;
  if (file === "index.ts") return 4;
  if (top === "lsp") return 5;
  if (top === "cli") return 6;
  return 7;
}

describe("the import graph of src/", () => {
  const graph = importGraph();

  it("is read whole (every domain folder and the core are in it)", () => {
    const folders = new Set([...graph.keys()].map((file) => file.split("/")[0]));
    for (const folder of ["core", "cli", ...DOMAIN_FOLDERS])
      expect(folders, folder).toContain(folder);
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
  });

  it("has no circles", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("has no import that runs back up a floor (core < domains < registry < library < lsp < cli)", () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => floorOf(target) > floorOf(file))
        .map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it("has no domain importing another", () => {
    const across = [...graph].flatMap(([file, targets]) => {
      const own = file.split("/")[0]!;
      if (!DOMAIN_FOLDERS.includes(own)) return [];
      return targets
        .filter(
          (target) =>
            DOMAIN_FOLDERS.includes(target.split("/")[0]!) && target.split("/")[0] !== own,
        )
        .map((target) => `${file} -> ${target}`);
    });
    expect(across).toEqual([]);
  });

  it("finds a circle and an upward import when there is one (the checks can fail)", () => {
    const bad = new Map([
      ["core/a.ts", ["core/b.ts", "capabilities/x.ts"]],
      ["core/b.ts", ["core/a.ts"]],
      ["capabilities/x.ts", []],
    ]);
    expect(circles(bad)).toEqual([["core/a.ts", "core/b.ts"]]);
    expect(floorOf("capabilities/x.ts")).toBeGreaterThan(floorOf("core/a.ts"));
  });
});

describe("the core", () => {
  const coreTexts = sourceFiles(path.join(SRC, "core")).map((file) => ({
    file: path.relative(ROOT, file),
    text: readFileSync(file, "utf8"),
  }));

  it("names no rule: reporters print what findings carry", () => {
    const named = coreTexts.flatMap(({ file, text }) =>
      // Ids of one word ("parse", "schema") are ordinary words too; the others are the rules' own.
      RULES.filter(
        (rule) => rule.id.includes("-") && new RegExp(`\\b${rule.id}\\b`).test(text),
      ).map((rule) => `${file}: ${rule.id}`),
    );
    expect(named).toEqual([]);
  });

  it("knows no framework: no word of the host (tauri, src-tauri, capability, Cargo) in its code, comments aside", () => {
    const FRAMEWORK_WORDS = /tauri|capabilit|cargo|acl-manifest/i;
    // Only a file that has one of the words somewhere is printed without its comments.
    const found = coreTexts.flatMap(({ file, text }) =>
      (FRAMEWORK_WORDS.test(text) ? codeOf(text) : "")
        .split("\n")
        .filter((line) => FRAMEWORK_WORDS.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
    // The check sees code and not comments.
    expect(
      codeOf('// tauri\nconst a = "src-tauri"; /* Cargo */').match(
        new RegExp(FRAMEWORK_WORDS, "gi"),
      ),
    ).toEqual(["tauri"]);
  });

  it("names no domain as a string", () => {
    const named = coreTexts.flatMap(({ file, text }) =>
      DOMAIN_FOLDERS.filter((name) => text.includes(`"${name}"`)).map(
        (name) => `${file}: "${name}"`,
      ),
    );
    expect(named).toEqual([]);
  });
});

describe("the rules", () => {
  /** Modules that reach the disk or the process: a rule that needs a file's content gets it from its loader. */
  const DISK_OR_PROCESS =
    /^node:(fs|fs\/promises|child_process|net|http|https)$|\/core\/source\/(read|read-log)\.js$/;

  it("read only the loaded model: no file under a rules folder imports the file system or the readers", () => {
    const ruleFiles = sourceFiles(SRC).filter((file) =>
      path.relative(SRC, file).split(path.sep).includes("rules"),
    );
    expect(ruleFiles.length).toBeGreaterThan(30);
    const touching = ruleFiles.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(IMPORT)]
        .map((match) => match[1] ?? match[2]!)
        .filter((specifier) => DISK_OR_PROCESS.test(specifier))
        .map((specifier) => `${path.relative(ROOT, file)} -> ${specifier}`),
    );
    expect(touching).toEqual([]);
  });
});

describe("module-level state", () => {
  /**
   * Empty Maps and Sets made at module level fill up while the process lives (the language server and
   * `--watch` live for hours): a memo of user input is a BoundedMemo (src/core/bounded-memo.ts) or hangs
   * on a run's object. These few stay, each for its reason.
   */
  const ALLOWED: Record<string, string> = {
    canonicalizers: "keyed on a URL component name: two entries at most",
    PREPARED: "keyed on the bundled event definitions",
    NOTHING_OPEN: "an empty constant, never filled",
    NO_WORDS: "an empty constant, never filled (no user words for the namespace check)",
    filesRead:
      "the run's read log: emptied by each main(), the language server's checks add nothing",
    filesReadByName:
      "the run's read log by name: emptied by each main() and when a report asks it, the language server's checks add nothing",
    recording: "the read logs of the loads in progress: each leaves when its load settles",
    rawPaths:
      "a name handed out must keep opening its file; grows only with names that are not UTF-8",
    jsonCache: "files shipped in the package",
    compiled: "keyed on the rules' own message templates",
  };
  const EMPTY_AT_MODULE_LEVEL =
    /^(?:export )?(?:const|let) (\w+)(?:: [^=\n]+)? = new (?:Map|Set)(?:<.*>)?\(\);?$/gm;

  it("has no unbounded cache: every empty Map or Set made at module level is a known, reasoned exception", () => {
    const found = sourceFiles(SRC).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(EMPTY_AT_MODULE_LEVEL)].map((match) => ({
        name: match[1]!,
        file: path.relative(ROOT, file),
      })),
    );
    expect(found.length).toBeGreaterThan(0);
    expect(
      found
        .filter(({ name }) => !Object.hasOwn(ALLOWED, name))
        .map(({ name, file }) => `${file}: ${name}`),
    ).toEqual([]);
  });
});

describe("the import walls of eslint.config.js (lsp/, capabilities/queries/)", () => {
  /** The `no-restricted-imports` messages ESLint gives one import written in a file at `file`. */
  async function wallsHit(file: string, specifier: string): Promise<string[]> {
    const eslint = new ESLint({
      cwd: ROOT,
      // The walls alone: the type-aware rules need a file the TypeScript project knows.
      overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
      ruleFilter: ({ ruleId }) => ruleId === "no-restricted-imports",
    });
    const [result] = await eslint.lintText(`import { x } from "${specifier}";\nexport { x };\n`, {
      filePath: path.join(ROOT, file),
    });
    return result!.messages.map((message) => message.message);
  }

  it.each([
    ["src/lsp/wall-probe.ts", "../cli/main.js"],
    ["src/lsp/wall-probe.ts", "../capabilities/commands/options.js"],
    ["src/lsp/wall-probe.ts", "../mcp/commands/mcp.js"],
    ["src/capabilities/queries/wall-probe.ts", "../lint.js"],
    ["src/capabilities/queries/wall-probe.ts", "../check-run.js"],
    ["src/capabilities/queries/wall-probe.ts", "../rules/dangerous-permission.js"],
    ["src/capabilities/queries/wall-probe.ts", "../render/permissions.js"],
    ["src/capabilities/queries/wall-probe.ts", "../commands/explain.js"],
    ["src/capabilities/queries/wall-probe.ts", "../../lsp/server.js"],
    ["src/capabilities/queries/wall-probe.ts", "../../cli/main.js"],
    ["src/capabilities/queries/wall-probe.ts", "../../registry.js"],
  ])("%s may not import %s", async (file, specifier) => {
    expect(await wallsHit(file, specifier)).toHaveLength(1);
  });

  it.each([
    ["src/lsp/wall-probe.ts", "../capabilities/check-run.js"],
    ["src/lsp/wall-probe.ts", "../events/run-events.js"],
    ["src/lsp/wall-probe.ts", "../index.js"],
    ["src/lsp/wall-probe.ts", "../registry.js"],
    ["src/lsp/wall-probe.ts", "../core/lint/rule.js"],
    ["src/lsp/wall-probe.ts", "../capabilities/commands/explain.js"],
    ["src/capabilities/queries/wall-probe.ts", "../engine/index.js"],
    ["src/capabilities/queries/wall-probe.ts", "../rules/support/frontend.js"],
    ["src/capabilities/queries/wall-probe.ts", "../../core/lint/rule.js"],
    ["src/capabilities/queries/wall-probe.ts", "./platforms.js"],
  ])("%s may import %s", async (file, specifier) => {
    expect(await wallsHit(file, specifier)).toEqual([]);
  });
});
