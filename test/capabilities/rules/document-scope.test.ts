import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { RuleMeta } from "../../../src/core/lint/rule.js";
import { RuleContractError } from "../../../src/core/messages.js";
import { lint, lintWithRules } from "../../../src/capabilities/lint.js";
import { LintMemo } from "../../../src/capabilities/lint-memo.js";
import { loadProject, type Project } from "../../../src/capabilities/load/project.js";
import { CAPABILITY_RULES } from "../../../src/capabilities/rules/index.js";
import { defineRule, type Rule } from "../../../src/capabilities/rules/types.js";
import {
  buildImpactOf,
  patternImpactOf,
  type BuildImpact,
} from "../../../src/capabilities/rules/support/platform-build.js";
import { resolveAll } from "../../../src/capabilities/engine/index.js";
import type { ResolvedModel } from "../../../src/capabilities/engine/model.js";
import { isPlatformIndependent } from "../../../src/capabilities/queries/platforms.js";
import { TARGETS, valuesOf, type Capability } from "../../../src/capabilities/model/types.js";

/**
 * Rules declared `scope: "document"` (src/core/lint/rule.ts): what they report about a file depends on
 * that file alone, so an editor's re-check runs them only over the files an edit changed. Two checks
 * of the declaration: each such rule, run over one file of an app at a time (the others' findings kept
 * from a run over the whole app), reports what it reports over the whole app; and the view a rule of
 * one document runs through refuses every read of what it may not depend on.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const FIXTURES = path.join(ROOT, "fixtures");
const DOCUMENT_RULES = CAPABILITY_RULES.filter((rule) => rule.scope === "document");

/** Every other rule off, as the rule tester runs one rule. */
function alone(rule: RuleMeta) {
  return {
    severityFor: (id: string) => (id === rule.id ? undefined : ("off" as const)),
    only: new Set([rule.id]),
  };
}

/** Apps and folders of several capability files: each rule's own invalid cases, and real apps. */
async function projects(rule: RuleMeta): Promise<Array<{ name: string; project: Project }>> {
  const out: Array<{ name: string; project: Project }> = [];
  const invalid = path.join(FIXTURES, "capabilities", rule.id, "invalid");
  out.push({
    name: `${rule.id}/invalid`,
    project: await loadProject({ cwd: invalid, paths: [invalid] }),
  });
  for (const entry of readdirSync(invalid, { withFileTypes: true }))
    if (entry.isDirectory()) {
      const app = path.join(invalid, entry.name);
      out.push({
        name: `${rule.id}/invalid/${entry.name}`,
        project: await loadProject({ cwd: app, app }),
      });
    }
  for (const app of [
    "real-world/build-truth/TheBestTvarynka__Dataans/dataans",
    "real-world/CapSoftware__Cap",
    "real-world/HuLaSpark__HuLa",
  ]) {
    const dir = path.join(FIXTURES, app);
    out.push({ name: app, project: await loadProject({ cwd: dir, app: dir }) });
  }
  return out;
}

describe("rules of one document", () => {
  it("are declared for the rules that judge each capability file by itself", () => {
    expect(DOCUMENT_RULES.map((rule) => rule.id)).toEqual(
      expect.arrayContaining(["redundant-permission", "empty-grant", "unknown-field", "no-target"]),
    );
  });

  for (const rule of DOCUMENT_RULES) {
    it(`${rule.id}: run over one file at a time, it reports what it reports over the whole app`, async () => {
      let files = 0;
      let findings = 0;
      // Every platform, and one (`--platform linux`, the fixtures' other-platform cases): the
      // platforms a run covers are an input every file shares.
      for (const platforms of [undefined, ["linux"]])
        for (const { name, project } of await projects(rule)) {
          const options = { ...alone(rule), ...(platforms ? { platforms } : {}) };
          const memo = new LintMemo();
          const whole = await lint(project, { ...options, memo });
          const kept = memo.rules.get(rule.id);
          if (kept?.scope !== "document") throw new Error(`${rule.id} kept no findings per file`);
          const units = [...kept.units.keys()];
          if (units.length < 2) continue;
          for (const file of units) {
            // As if this file alone had changed: the rule runs over it, the others' findings are kept.
            kept.units.get(file)!.key = "edited";
            const again = await lint(project, { ...options, memo });
            expect(memo.work.ran.get(rule.id), `${name}: ${file}`).toEqual([file]);
            expect(again.diagnostics, `${name}: ${file}`).toEqual(whole.diagnostics);
            files++;
          }
          findings += whole.diagnostics.filter((d) => d.ruleId === rule.id).length;
        }
      expect(files).toBeGreaterThanOrEqual(5);
      expect(findings).toBeGreaterThan(0);
    });
  }

  it("the build impact of a capability, worked out from it alone, is the one the app's resolution gives", async () => {
    // unknown-permission, legacy-identifier and invalid-remote-url once read the resolution for it; as
    // rules of one document they work it out from the capability, the platforms asked and the config.
    // Compared for every capability of apps with capability lists, platforms and remote URLs, not only
    // those with findings: each demotion and note as the resolution of the whole app (the old way) gives them.
    const apps = [
      "capabilities/invalid-remote-url/invalid/inline",
      // Capability files the config does not load, on every target or on some.
      "capabilities/ignored-file/invalid/selection",
      "capabilities/ignored-file/invalid/platform-selection",
      "capabilities/ignored-file/invalid/inline-only",
      "capabilities/unmatched-window/invalid/platform-configs",
      "capabilities/invalid-remote-url/invalid",
      "capabilities/invalid-label-pattern/invalid",
      "capabilities/unknown-permission/invalid",
      "real-world/build-truth/TheBestTvarynka__Dataans/dataans",
      "real-world/CapSoftware__Cap",
      "real-world/HuLaSpark__HuLa",
      ...readdirSync(path.join(FIXTURES, "real-world"))
        .filter((name) => name.includes("__"))
        .slice(0, 12)
        .map((name) => `real-world/${name}`),
    ];
    let compared = 0;
    let demoted = 0;
    for (const app of apps) {
      const dir = path.join(FIXTURES, app);
      const project = app.endsWith("invalid")
        ? await loadProject({ cwd: dir, paths: [dir] })
        : await loadProject({ cwd: dir, app: dir });
      for (const platforms of [TARGETS, ["linux"], ["macOS", "iOS"]]) {
        const context = { platforms, catalog: project.catalog, project };
        const models = resolveAll({
          capabilities: project.activeCapabilities,
          catalog: project.catalog,
          platforms: isPlatformIndependent(project) ? platforms.slice(0, 1) : platforms,
        }).models;
        const byResolution = resolutionImpact(models);
        const build = buildImpactOf(context);
        const pattern = patternImpactOf(context);
        for (const capability of project.capabilities) {
          const expected = byResolution(capability);
          expect(build(capability), `${app}: ${capability.identifier}`).toEqual(expected.build);
          expect(await pattern(capability), `${app}: ${capability.identifier}`).toEqual(
            expected.pattern,
          );
          compared++;
          if (expected.pattern.demote) demoted++;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(demoted).toBeGreaterThan(3);
  });

  const planted = (id: string, check: Rule["check"]): Rule =>
    defineRule({
      id: id as "schema",
      description: "a planted rule that breaks its declaration",
      category: "correctness",
      defaultSeverity: "warning",
      fixable: false,
      scope: "document",
      messages: { found: "found" },
      check,
    });
  const pipeline = CAPABILITY_RULES.filter((rule) => rule.kind === "pipeline");
  const breaches: Array<[string, Rule["check"]]> = [
    ["the resolution", async (context) => void (await context.resolution())],
    ["the per-platform models", async (context) => void (await context.resolutions())],
    ["the suppressions' use", (context) => void context.suppressions()],
    ["project.activeCapabilities", (context) => void context.project.activeCapabilities.length],
    ["project.frontend", (context) => void context.project.frontend],
    ["project.problems", (context) => void context.project.problems.length],
  ];
  for (const [what, check] of breaches) {
    it(`a rule of one document that reads ${what} is a contract error`, async () => {
      const app = path.join(FIXTURES, "real-world/build-truth/TheBestTvarynka__Dataans/dataans");
      const project = await loadProject({ cwd: app, app });
      await expect(
        lintWithRules(project, [...pipeline, planted("planted", check)]),
      ).rejects.toThrow(RuleContractError);
    });
  }

  it("a rule of one document that reads or reports in another file than those it checks is a contract error", async () => {
    const app = path.join(FIXTURES, "real-world/build-truth/TheBestTvarynka__Dataans/dataans");
    const project = await loadProject({ cwd: app, app });
    const [first, second] = project.documents;
    const reader = planted("reader", (context) => {
      context.document(second!);
    });
    const reporter = planted("reporter", (context) => {
      context.report({ at: second!, path: [], messageId: "found" });
    });
    for (const rule of [reader, reporter]) {
      const memo = new LintMemo();
      await lintWithRules(project, [...pipeline, rule], { memo });
      const kept = memo.rules.get(rule.id);
      if (kept?.scope !== "document") throw new Error("no findings kept per file");
      kept.units.get(first!.absolutePath)!.key = "edited";
      await expect(lintWithRules(project, [...pipeline, rule], { memo })).rejects.toThrow(
        /declares scope "document" but read/,
      );
    }
  });
});

/**
 * The build impact as it was worked out before the rules that ask for it were of one document: from
 * the resolution of the whole app (its platforms, and the commands each capability resolves to there).
 */
function resolutionImpact(
  models: readonly ResolvedModel[],
): (capability: Capability) => { build: BuildImpact; pattern: BuildImpact } {
  const asked = models.map((model) => model.platform);
  const checkedOn = (capability: Capability, platform: string) =>
    (capability.platforms === undefined || valuesOf(capability.platforms).includes(platform)) &&
    (!capability.source.inline ||
      capability.configPlatforms === undefined ||
      capability.configPlatforms.some((target) => target === platform));
  const resolving = new Set<Capability>();
  for (const model of models) {
    for (const resolved of model.capabilities)
      if (model.allowedCommandLists(resolved.index).some((list) => list.length > 0))
        resolving.add(resolved.capability);
    for (const entries of model.denied.values())
      for (const entry of entries)
        resolving.add(model.capabilities[entry.capabilityIndex]!.capability);
  }
  return (capability) => {
    let build: BuildImpact = { demote: false, note: "" };
    if (models.length > 0 && !asked.some((platform) => checkedOn(capability, platform))) {
      const platforms = (capability.platforms ? valuesOf(capability.platforms) : TARGETS).filter(
        (platform) => checkedOn(capability, platform),
      );
      build = {
        demote: true,
        note: platforms.length
          ? `; it breaks the ${platforms.join(" and ")} build (the capability is not active on ${asked.join(" or ")})`
          : "; it breaks no build (the capability is active on no platform)",
      };
    }
    const pattern =
      build.demote || models.length === 0 || resolving.has(capability)
        ? build
        : {
            demote: true,
            note: "; the build passes only because the capability resolves to no command: the first command it grants or denies breaks it",
          };
    return { build, pattern };
  };
}
