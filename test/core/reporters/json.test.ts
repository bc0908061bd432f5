import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../src/core/diagnostics.js";
import json from "../../../src/core/reporters/json.js";
import sarif from "../../../src/core/reporters/sarif.js";
import { NO_PAINT, type Reporter } from "../../../src/core/reporters/types.js";
import { docsUrl, toolVersion } from "../../../src/core/tool.js";
import { RULES_BY_ID } from "../../../src/registry.js";

const base: Diagnostic = {
  ruleId: "allow-deny-conflict",
  severity: "warning",
  message: "the deny wins",
  file: "caps/main.json",
  absolutePath: "/repo/caps/main.json",
  path: ["permissions", 3],
  range: { start: { line: 9, column: 5 }, end: { line: 9, column: 20 } },
  offset: 0,
  length: 15,
};

function render(reporter: Reporter, diagnostic: Diagnostic): unknown {
  return JSON.parse(
    reporter(
      {
        diagnostics: [diagnostic],
        summary: { files: 1, errors: 0, warnings: 1, suggestions: 0, fixable: 0 },
      },
      {
        cwd: "/repo",
        paint: NO_PAINT,
        rules: RULES_BY_ID,
        toolVersion: toolVersion(),
        docsUrl,
        sourceText: () => undefined,
      },
    ),
  );
}

describe("a finding that pairs two places (relatedLine)", () => {
  it("JSON carries relatedLine only when the finding has one", () => {
    const [paired] = (render(json, { ...base, relatedLine: 4 }) as { diagnostics: object[] })
      .diagnostics;
    expect(paired).toMatchObject({ line: 9, relatedLine: 4 });
    const [single] = (render(json, base) as { diagnostics: object[] }).diagnostics;
    expect(single).not.toHaveProperty("relatedLine");
  });

  it("SARIF points a related location at the other line of the same file", () => {
    const log = render(sarif, { ...base, relatedLine: 4 }) as {
      runs: Array<{ results: Array<{ relatedLocations?: unknown[] }> }>;
    };
    expect(log.runs[0]!.results[0]!.relatedLocations).toMatchObject([
      {
        id: 1,
        physicalLocation: {
          artifactLocation: { uri: "caps/main.json", uriBaseId: "%SRCROOT%" },
          region: { startLine: 4 },
        },
      },
    ]);
    const plain = render(sarif, base) as { runs: Array<{ results: Array<object> }> };
    expect(plain.runs[0]!.results[0]).not.toHaveProperty("relatedLocations");
  });
});
