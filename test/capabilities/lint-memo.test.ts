import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lintWithRules } from "../../src/capabilities/lint.js";
import { LintMemo } from "../../src/capabilities/lint-memo.js";
import { loadProject, reloadCapabilityFiles } from "../../src/capabilities/load/project.js";
import { CAPABILITY_RULES } from "../../src/capabilities/rules/index.js";
import { defineRule, type Rule } from "../../src/capabilities/rules/types.js";

/**
 * A rule of the whole app keeps its findings through an edit when nothing it read changed: the
 * capabilities' values, and the text of each document it read more of than its name and value (a
 * finding that names a line reads the text). Planted rules read one or the other; the edits change
 * a document's text without its value, then its value.
 */

const pipeline = CAPABILITY_RULES.filter((rule) => rule.kind === "pipeline");
const define = (id: string, check: Rule["check"]): Rule =>
  defineRule({
    id: id as "schema",
    description: "a planted rule",
    category: "correctness",
    defaultSeverity: "warning",
    fixable: false,
    messages: { found: "{{what}}" },
    check,
  });
/** Reads each document's text: its finding says how long the first one is. */
const textReader = define("text-reader", (context) => {
  const [first] = context.project.documents;
  context.report({
    at: first!,
    path: [],
    messageId: "found",
    data: { what: `${first!.text.length} characters` },
  });
});
/** Reads only the documents' names and values. */
const nameReader = define("name-reader", (context) => {
  for (const document of context.project.documents)
    context.report({
      at: document,
      path: [],
      messageId: "found",
      data: { what: `${document.file}: ${JSON.stringify(document.value).length}` },
    });
});

describe("a session's lint keeps what did not change", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a rule that read a document's text runs again when only the formatting changed; one that read names and values does not", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "caplint-memo-"));
    const folder = path.join(dir, "capabilities");
    mkdirSync(folder);
    const a = { identifier: "a", windows: ["main"], permissions: ["core:default"] };
    writeFileSync(path.join(folder, "a.json"), JSON.stringify(a));
    writeFileSync(
      path.join(folder, "b.json"),
      JSON.stringify({ identifier: "b", windows: ["main"], permissions: [] }),
    );
    const rules = [...pipeline, textReader, nameReader];
    const memo = new LintMemo();
    let project = await loadProject({ cwd: dir, paths: [folder] });
    const first = await lintWithRules(project, rules, { memo });
    const said = (result: typeof first, id: string) =>
      result.diagnostics.filter((d) => d.ruleId === id).map((d) => d.message);
    expect(said(first, "text-reader")).toEqual([`${JSON.stringify(a).length} characters`]);

    // The same value, written on several lines.
    writeFileSync(path.join(folder, "a.json"), JSON.stringify(a, null, 2));
    project = await reloadCapabilityFiles(project);
    const reformatted = await lintWithRules(project, rules, { memo });
    expect([...memo.work.ran.keys()]).toEqual(["text-reader"]);
    expect(memo.work.replayed).toEqual(["name-reader"]);
    expect(said(reformatted, "text-reader")).toEqual([
      `${JSON.stringify(a, null, 2).length} characters`,
    ]);
    expect(said(reformatted, "name-reader")).toEqual(said(first, "name-reader"));

    // Nothing changed: both keep their findings.
    project = await reloadCapabilityFiles(project);
    const again = await lintWithRules(project, rules, { memo });
    expect(memo.work.ran.size).toBe(0);
    expect(again.diagnostics).toEqual(reformatted.diagnostics);

    // A value changed: both run again.
    writeFileSync(
      path.join(folder, "b.json"),
      JSON.stringify({ identifier: "b", windows: ["main"], permissions: ["core:default"] }),
    );
    project = await reloadCapabilityFiles(project);
    const changed = await lintWithRules(project, rules, { memo });
    expect([...memo.work.ran.keys()].sort()).toEqual(["name-reader", "text-reader"]);
    expect(said(changed, "name-reader")).not.toEqual(said(first, "name-reader"));
  });

  it("the rule that runs last keeps its findings only when no other rule ran again", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "caplint-memo-"));
    const folder = path.join(dir, "capabilities");
    mkdirSync(folder);
    // Reports in a.json only when its text has an even length: a formatting edit decides whether the
    // suppression below is used.
    const parity = define("text-parity", (context) => {
      const document = context.project.documents.find((d) => d.file.endsWith("a.json"))!;
      if (document.text.length % 2 === 0)
        context.report({ at: document, path: [], messageId: "found", data: { what: "even" } });
    });
    const unusedSuppression = CAPABILITY_RULES.find((rule) => rule.id === "unused-suppression")!;
    const rules = [...pipeline, parity, unusedSuppression];
    const a = {
      identifier: "a",
      windows: ["main"],
      permissions: ["core:default"],
      "caplint-disable": ["text-parity"],
    };
    const even = (text: string) => (text.length % 2 === 0 ? text : `${text} `);
    writeFileSync(path.join(folder, "a.json"), even(JSON.stringify(a)));
    const memo = new LintMemo();
    let project = await loadProject({ cwd: dir, paths: [folder] });
    const unused = async () =>
      (await lintWithRules(project, rules, { memo })).diagnostics.filter(
        (d) => d.ruleId === "unused-suppression",
      ).length;
    // The suppression is used: nothing unused.
    expect(await unused()).toBe(0);
    // Nothing changed: both keep their findings.
    project = await reloadCapabilityFiles(project);
    expect(await unused()).toBe(0);
    expect(memo.work.ran.size).toBe(0);
    // An odd length, the same value: text-parity runs again and reports nothing, so the suppression is unused.
    writeFileSync(path.join(folder, "a.json"), `${even(JSON.stringify(a))} `);
    project = await reloadCapabilityFiles(project);
    expect(await unused()).toBe(1);
    expect([...memo.work.ran.keys()]).toEqual(["text-parity", "unused-suppression"]);
  });
});
