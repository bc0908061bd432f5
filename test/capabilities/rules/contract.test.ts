import path from "node:path";
import { describe, expect, it } from "vitest";
import { lint, lintWithRules, type CapabilityRule } from "../../../src/capabilities/lint.js";
import { loadProject } from "../../../src/capabilities/load/project.js";
import { CAPABILITY_RULES } from "../../../src/capabilities/rules/index.js";
import { defineRule, type RuleContext } from "../../../src/capabilities/rules/types.js";
import { EXIT_FINDINGS, EXIT_OK, exitCodeFor } from "../../../src/core/exit-codes.js";
import { formatMessage, RuleContractError } from "../../../src/core/messages.js";
import { isRuleId, type RuleId } from "../../../src/registry.js";
import { FIXTURES } from "../../helpers/run.js";

const STALE = path.join(FIXTURES, "capabilities", "unused-suppression/invalid/stale.json");
const project = () => loadProject({ cwd: path.dirname(STALE), paths: [STALE] });

/** A rule that reports one finding on the first capability, shaped by `finding`. */
function probe(
  id: string,
  fixable: boolean,
  finding: Record<string, unknown>,
  seen?: Array<Pick<RuleContext, "rule">>,
) {
  return defineRule({
    id,
    description: "test rule",
    category: "correctness",
    defaultSeverity: "warning",
    fixable,
    messages: { found: "found {{what}}", plain: "found it" },
    check(context) {
      seen?.push(context);
      const capability = context.capabilities[0]!;
      // Deliberately untyped: these findings break the contract on purpose.
      context.report({ at: capability.source, path: capability.source.path, ...finding } as never);
    },
  });
}

const withRules = (...extra: CapabilityRule[]) => [
  ...CAPABILITY_RULES.filter((rule) => rule.kind === "pipeline"),
  ...extra,
];

describe("the rule contract (per-rule context, messages as data, fixable enforced)", () => {
  it("gives every rule its own frozen context, bound to that rule", async () => {
    const seen: Array<Pick<RuleContext, "rule">> = [];
    const result = await lintWithRules(
      await project(),
      withRules(
        probe("probe-a", false, { messageId: "plain" }, seen),
        probe("probe-b", false, { messageId: "plain" }, seen),
      ),
    );
    expect(seen.map((context) => context.rule.id)).toEqual(["probe-a", "probe-b"]);
    expect(seen[0]).not.toBe(seen[1]);
    for (const context of seen) expect(Object.isFrozen(context)).toBe(true);
    expect(() => Object.assign(seen[0]!, { report: () => undefined })).toThrow(TypeError);
    // A context kept after its rule ran still reports as that rule, never as whichever rule runs now.
    expect(result.diagnostics.map((d) => d.ruleId)).toEqual(["probe-a", "probe-b"]);
  });

  it("builds the message from the rule's template and keeps the messageId and data on the finding", async () => {
    const result = await lintWithRules(
      await project(),
      withRules(probe("probe", false, { messageId: "found", data: { what: '"x"' } })),
    );
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      ruleId: "probe",
      messageId: "found",
      message: 'found "x"',
      data: { what: '"x"' },
    });
  });

  it("throws an internal error when a rule reports a messageId its meta does not declare, or leaves a placeholder empty", async () => {
    await expect(
      lintWithRules(await project(), withRules(probe("probe", false, { messageId: "missing" }))),
    ).rejects.toThrow(
      new RuleContractError(
        "probe",
        'reported messageId "missing", which its meta.messages does not declare',
      ),
    );
    await expect(
      lintWithRules(
        await project(),
        withRules(probe("probe", false, { messageId: "found", data: {} })),
      ),
    ).rejects.toThrow('rule "probe" reported messageId "found" without a value for {{what}}');
  });

  it("has one way to give a finding's text: a messageId (a finished message does not compile, and throws)", async () => {
    await expect(
      lintWithRules(
        await project(),
        withRules(probe("probe", false, { messageId: "plain", message: "found it" })),
      ),
    ).rejects.toThrow(
      new RuleContractError(
        "probe",
        "reported a finished message; a finding names a messageId of its meta.messages",
      ),
    );
    const typed = defineRule({
      id: "typed",
      description: "test rule",
      category: "correctness",
      defaultSeverity: "warning",
      fixable: false,
      messages: { plain: "found it" },
      check(context) {
        const at = context.capabilities[0]!.source;
        // @ts-expect-error a finished message instead of a messageId
        context.report({ at, path: [], message: "found it" });
        // @ts-expect-error a message beside the messageId
        context.report({ at, path: [], messageId: "plain", message: "found it" });
        // @ts-expect-error a messageId the rule does not declare
        context.report({ at, path: [], messageId: "other" });
      },
    });
    // Helpers shared by rules take the plain context, which takes no message either.
    const helper = (context: RuleContext) =>
      // @ts-expect-error a finished message through the plain RuleContext
      context.report({ at: context.capabilities[0]!.source, path: [], message: "found it" });
    expect([typed.id, typeof helper]).toEqual(["typed", "function"]);
  });

  it("throws an internal error when a rule whose meta says fixable: false returns a fix", async () => {
    const fix = () => ({ description: "nothing", edits: [] });
    await expect(
      lintWithRules(await project(), withRules(probe("probe", false, { messageId: "plain", fix }))),
    ).rejects.toThrow(
      new RuleContractError("probe", "returned a fix, but its meta says fixable: false"),
    );
    // The same finding from a fixable rule is fine, and even a rule that is off must keep the contract.
    const fixable = await lintWithRules(
      await project(),
      withRules(probe("probe", true, { messageId: "plain", fix })),
    );
    expect(fixable.diagnostics.map((d) => d.ruleId)).toEqual(["probe"]);
    await expect(
      lintWithRules(
        await project(),
        withRules(probe("probe", false, { messageId: "plain", fix })),
        { severityFor: () => "off" },
      ),
    ).rejects.toThrow(RuleContractError);
  });

  it("runs unused-suppression as a rule, after every other rule, from context.suppressions()", async () => {
    const suppressing = probe("unknown-plugin", false, { messageId: "plain" });
    const rules = CAPABILITY_RULES.map((rule) =>
      rule.id === "unknown-plugin" ? { ...suppressing, id: "unknown-plugin" as const } : rule,
    );
    // unknown-plugin is listed after unused-suppression's neighbours but must still count as used.
    const result = await lintWithRules(await project(), rules);
    expect(
      result.diagnostics.filter((d) => d.ruleId === "unused-suppression").map((d) => d.messageId),
    ).toEqual(["unknownRule", "pipelineFinding"]);
    const plain = await lint(await project());
    expect(plain.diagnostics.map((d) => [d.ruleId, d.messageId])).toEqual([
      ["unused-suppression", "unused"],
      ["unused-suppression", "unknownRule"],
      ["unused-suppression", "pipelineFinding"],
    ]);
  });

  it("lists parse and schema as pipeline steps without a check", () => {
    const steps = CAPABILITY_RULES.filter((rule) => rule.kind === "pipeline");
    expect(steps.map((step) => step.id)).toEqual(["parse", "schema"]);
    for (const step of steps) expect("check" in step).toBe(false);
  });

  it("reports a finding once when a rule reports it twice, and keeps findings that differ in message only", async () => {
    const twice = defineRule({
      id: "probe-twice",
      description: "test rule",
      category: "correctness",
      defaultSeverity: "warning",
      fixable: false,
      messages: { found: "found {{what}}" },
      check(context) {
        const capability = context.capabilities[0]!;
        for (const what of ["b", "a", "b", "a", "b"])
          context.report({
            at: capability.source,
            path: capability.source.path,
            messageId: "found",
            data: { what },
          });
      },
    });
    const result = await lintWithRules(await project(), withRules(twice));
    expect(result.diagnostics.map((d) => d.message)).toEqual(["found a", "found b"]);
  });

  it("shortens long quoted values wherever they sit in a message, and only those", async () => {
    const message = async (what: string) =>
      (
        await lintWithRules(
          await project(),
          withRules(probe("probe", false, { messageId: "found", data: { what } })),
        )
      ).diagnostics[0]!.message;
    const long = "v".repeat(150);
    const short = Array.from({ length: 30 }, (_, i) => `"name-${i}"`).join(", ");
    // A long message of short quoted values (a list of names) is kept as it is.
    expect(await message(short)).toBe(`found ${short}`);
    // Prose between quotes is the message's own, however long: the pairing is from the left.
    expect(await message(`"a" ${long} "b"`)).toBe(`found "a" ${long} "b"`);
    // A long value after many short ones, and one with no closing quote after it.
    expect(await message(`${short}, "${long}"`)).toBe(
      `found ${short}, "${"v".repeat(80)}…${"v".repeat(20)}" (150 characters)`,
    );
    expect(await message(`${short}, "${long}`)).toBe(`found ${short}, "${long}`);
  });

  it("formats templates: every placeholder filled, values written as given", () => {
    expect(
      formatMessage({ id: "r", messages: { m: "{{a}} and {{b}} and {{a}}" } }, "m", {
        a: 1,
        b: "two",
      }),
    ).toBe("1 and two and 1");
    expect(() => formatMessage({ id: "r", messages: { m: "{{a}}" } }, "toString")).toThrow(
      RuleContractError,
    );
  });
});

describe("typed rule ids and the one exit-code function", () => {
  it("rule ids are a union derived from the rule lists, not string", () => {
    const known: RuleId = "unknown-permission";
    // @ts-expect-error a misspelt rule id does not compile
    const misspelt: RuleId = "unknown-permision";
    expect([known, misspelt].map((id) => isRuleId(id))).toEqual([true, false]);
  });

  it("exitCodeFor: 1 for error findings, a --max-warnings overrun or a failed answer; else 0", () => {
    expect(exitCodeFor({ errors: 0, warnings: 3 })).toBe(EXIT_OK);
    expect(exitCodeFor({ errors: 1, warnings: 0 })).toBe(EXIT_FINDINGS);
    expect(exitCodeFor({ errors: 0, warnings: 3 }, { maxWarnings: 2 })).toBe(EXIT_FINDINGS);
    expect(exitCodeFor({ errors: 0, warnings: 2 }, { maxWarnings: 2 })).toBe(EXIT_OK);
    expect(exitCodeFor({ failed: true })).toBe(EXIT_FINDINGS);
    expect(exitCodeFor({ failed: false })).toBe(EXIT_OK);
  });
});
