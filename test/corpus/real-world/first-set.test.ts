import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, run } from "../../helpers/run.js";

/**
 * The real-world corpus (fixtures/real-world, copied from public apps with attribution in each
 * SOURCE.txt): every project is checked as an app, with its in-repo plugins when it has them, and the
 * findings are compared with fixtures/real-world/expected.out. Review a change to that file like code.
 */
const CORPUS = path.join(FIXTURES, "real-world");
// `second-set/` and `build-truth/` hold further corpora, each with its own test (real-world-second-set.test.ts,
// real-world-build-truth.test.ts).
const OTHER_SETS = new Set(["second-set", "build-truth"]);
const projects = readdirSync(CORPUS)
  .filter((name) => !OTHER_SETS.has(name) && statSync(path.join(CORPUS, name)).isDirectory())
  .sort();

function argsFor(project: string): string[] {
  const plugins = path.join(project, "plugin-permissions");
  return [
    "check",
    "--app",
    project,
    "--format",
    "compact",
    ...(existsSync(path.join(CORPUS, plugins)) ? ["--plugins", plugins] : []),
  ];
}

describe("real-world corpus", () => {
  it("produces the reviewed findings", async () => {
    const out: string[] = [];
    for (const project of projects) {
      const result = await run(argsFor(project), CORPUS);
      out.push(
        `# ${project}: exit ${result.code}${result.stderr ? `, stderr: ${result.stderr.trim()}` : ""}`,
        ...result.stdout.trim().split("\n").filter(Boolean),
      );
    }
    await expect(out.join("\n") + "\n").toMatchFileSnapshot(path.join(CORPUS, "expected.out"));
  }, 120_000);

  // Traps listed as "not-a-finding" in the corpus's expected-findings.json: valid things a naive linter flags.
  const findings = async (project: string) => (await run(argsFor(project), CORPUS)).stdout;

  it("in-repo plugins named like core areas are not legacy identifiers", async () => {
    const output = await findings("fastrepl__hyprnote");
    expect(output).not.toMatch(/"tray:default".*legacy-identifier/);
    expect(output).not.toMatch(/"windows:default".*legacy-identifier/);
  });

  it("a webviews-only capability has a target", async () => {
    expect(await findings("tw93__Pake")).not.toContain("[no-target]");
  });

  it("unusual but valid core identifiers are known", async () => {
    for (const project of [
      "EcoPasteHub__EcoPaste",
      "ayangweb__BongoCat",
      "infinilabs__coco-app",
      "kunkunsh__kunkun",
      "HuLaSpark__HuLa",
    ]) {
      const output = await findings(project);
      expect(output, project).not.toMatch(/internal-toggle-maximize".*unknown-permission/);
      expect(output, project).not.toMatch(/set-badge-count".*unknown-permission/);
    }
  });

  it("the same permission plain and scoped is not a duplicate", async () => {
    for (const project of [
      "clash-verge-rev__clash-verge-rev",
      "infinilabs__coco-app",
      "getAsterisk__claudia",
    ]) {
      const output = await findings(project);
      expect(output, project).not.toMatch(
        /"(http:default|shell:allow-execute|shell:allow-spawn)" is already listed.*duplicate-permission/,
      );
    }
  });

  it("mobile-only plugins missing from a desktop-generated manifest are not unknown permissions", async () => {
    expect(await findings("HuLaSpark__HuLa")).not.toMatch(/barcode-scanner:.*unknown-permission/);
  });
});
