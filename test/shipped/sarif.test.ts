import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/core/diagnostics.js";
import { docsUrl, toolVersion } from "../../src/core/tool.js";
import sarif from "../../src/core/reporters/sarif.js";
import { NO_PAINT } from "../../src/core/reporters/types.js";
import { CAPABILITY_RULES } from "../../src/capabilities/rules/index.js";
import { RULES_BY_ID } from "../../src/registry.js";
import { checkoutBin } from "../helpers/hosts.js";
import { FIXTURES, ROOT, run } from "../helpers/run.js";

const SARIF_FIXTURES = path.join(FIXTURES, "sarif");
/** An app whose capability and permission files trigger every rule listed in COVERED_RULES. */
const APP = path.join(SARIF_FIXTURES, "app");
/** What %SRCROOT% names: the repository holding the app (this checkout), else the app's folder. */
const SOURCE_ROOT = existsSync(path.join(ROOT, ".git")) ? ROOT : APP;
/** The schema carries no $id; the OASIS one is given so single definitions can be addressed. */
const SCHEMA_ID =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/**
 * Rules that `fixtures/sarif/app` triggers. A new rule need not join: a result is written the same for
 * every rule, and each rule's descriptor (from its metadata) is checked for every rule below.
 */
const COVERED_RULES = [
  "manifest-mismatch",
  "plugin-not-in-build",
  "allow-deny-conflict",
  "broad-remote",
  "dangerous-permission",
  "dead-scope",
  "empty-grant",
  "default-without-set",
  "deny-applies-globally",
  "duplicate-capability",
  "duplicate-permission",
  "empty-platforms",
  "frontend-calls-unregistered-plugin",
  "frontend-command-not-granted",
  "frontend-version-skew",
  "ignored-file",
  "insecure-remote",
  "invalid-identifier",
  "invalid-label-pattern",
  "invalid-platform",
  "invalid-remote-url",
  "legacy-identifier",
  "no-target",
  "parse",
  "redundant-permission",
  "schema",
  "scope-conflict",
  "set-cycle",
  "unknown-field",
  "unknown-permission",
  "unknown-plugin",
  "unknown-set-member",
  "unmatched-window",
  "unsafe-pattern",
  "unused-dangerous-permission",
  "unused-permission",
  "unused-suppression",
];

function validators() {
  const schema = JSON.parse(
    readFileSync(path.join(SARIF_FIXTURES, "sarif-2.1.0.schema.json"), "utf8"),
  ) as Record<string, unknown>;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  ajv.addSchema({ ...schema, $id: SCHEMA_ID });
  const validateLog = ajv.getSchema(SCHEMA_ID)!;
  const validateResult = ajv.compile({ $ref: `${SCHEMA_ID}#/definitions/result` });
  const validateRule = ajv.compile({ $ref: `${SCHEMA_ID}#/definitions/reportingDescriptor` });
  return { ajv, validateLog, validateResult, validateRule };
}

interface SarifLog {
  $schema: string;
  version: string;
  runs: Array<{
    tool: { driver: { name: string; version: string; informationUri: string; rules: SarifRule[] } };
    originalUriBaseIds: Record<string, { uri: string }>;
    results: SarifResult[];
  }>;
}
interface SarifRule {
  id: string;
  properties: { tags: string[]; precision: string; "security-severity"?: string };
  shortDescription: { text: string };
  helpUri: string;
  defaultConfiguration: { level: string };
}
interface SarifResult {
  ruleId: string;
  partialFingerprints: Record<string, string>;
  ruleIndex: number;
  level: string;
  message: { text: string };
  properties?: { messageId?: string };
  locations: Array<{
    physicalLocation: {
      artifactLocation: { uri: string; uriBaseId?: string };
      region: { startLine: number; startColumn: number; endLine: number; endColumn: number };
    };
  }>;
}

async function sarifRun(): Promise<{ log: SarifLog; code: number; stderr: string }> {
  const result = await run(["check", "--format", "sarif"], APP);
  return { log: JSON.parse(result.stdout) as SarifLog, code: result.code, stderr: result.stderr };
}

describe("sarif reporter", { timeout: 120_000 }, () => {
  it("produces a log that validates against the SARIF 2.1.0 schema, result by result", async () => {
    const { log, code, stderr } = await sarifRun();
    expect(stderr).toBe("");
    expect(code).toBe(1);
    const { ajv, validateLog, validateResult, validateRule } = validators();
    expect(validateLog(log), ajv.errorsText(validateLog.errors)).toBe(true);
    const [runLog] = log.runs;
    expect(runLog!.results.length).toBeGreaterThan(0);
    for (const result of runLog!.results) {
      expect(
        validateResult(result),
        `${result.ruleId}: ${ajv.errorsText(validateResult.errors)}`,
      ).toBe(true);
    }
    for (const rule of runLog!.tool.driver.rules) {
      expect(validateRule(rule), `${rule.id}: ${ajv.errorsText(validateRule.errors)}`).toBe(true);
    }
  });

  it("the schema check can fail: a result without a message is rejected", () => {
    const { validateResult } = validators();
    expect(validateResult({ ruleId: "parse", locations: [] })).toBe(false);
  });

  it("names the configuration used in invocations[0], valid against the SARIF 2.1.0 schema", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-sarif-config-"));
    mkdirSync(path.join(dir, ".git"));
    mkdirSync(path.join(dir, "conf"));
    writeFileSync(
      path.join(dir, "cap.json"),
      JSON.stringify({
        identifier: "main",
        windows: ["main"],
        permissions: ["core:default", "fs:allow-reed-file"],
        windowz: [],
      }),
    );
    writeFileSync(
      path.join(dir, "conf", "lint config.json"),
      JSON.stringify({ rules: { "unknown-field": "off" } }),
    );
    const { ajv, validateLog } = validators();
    const invocation = async (argv: string[]) => {
      const out = await run(["check", "--format", "sarif", ...argv, "cap.json"], dir);
      expect(out.stderr).toBe("");
      const log = JSON.parse(out.stdout) as SarifLog & {
        runs: Array<{ invocations?: Array<Record<string, unknown>> }>;
      };
      expect(validateLog(log), ajv.errorsText(validateLog.errors)).toBe(true);
      return {
        invocations: log.runs[0]!.invocations,
        rules: log.runs[0]!.results.map((r) => r.ruleId),
      };
    };
    const configured = await invocation(["--config", "conf/lint config.json"]);
    expect(configured.rules).not.toContain("unknown-field");
    expect(configured.invocations).toEqual([
      {
        executionSuccessful: true,
        toolConfigurationNotifications: [
          {
            level: "note",
            message: { text: "rule settings read from conf/lint config.json" },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: "conf/lint%20config.json", uriBaseId: "%SRCROOT%" },
                },
              },
            ],
          },
        ],
        properties: { config: "conf/lint config.json" },
      },
    ]);
    const plain = await invocation([]);
    expect(plain.rules).toContain("unknown-field");
    expect(plain.invocations).toEqual([
      { executionSuccessful: true, properties: { config: null } },
    ]);
  });

  it("has findings of every covered rule", async () => {
    const { log } = await sarifRun();
    const found = new Set(log.runs[0]!.results.map((r) => r.ruleId));
    for (const id of COVERED_RULES)
      expect(found, `no ${id} finding in fixtures/sarif/app`).toContain(id);
  });

  it("a manifest definition no release writes is a warning result that names the permission and command it adds", async () => {
    const { log } = await sarifRun();
    const results = log.runs[0]!.results.filter(
      (r) => r.ruleId === "manifest-mismatch" && r.level === "warning",
    );
    expect(results.map((r) => r.message.text.split("\n")[0])).toContainEqual(
      'plugin "fs": "fs:allow-exists" in the manifest also allows "remove", unlike every release of tauri-plugin-fs through 2.5.1; the build writes its own, and caplint answers with both definitions',
    );
  });

  it("describes every capability rule in tool.driver", async () => {
    const { log } = await sarifRun();
    const driver = log.runs[0]!.tool.driver;
    expect(log.version).toBe("2.1.0");
    expect(log.$schema).toBe(SCHEMA_ID);
    expect(driver.name).toBe("caplint");
    expect(driver.version).toBe(
      JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version,
    );
    expect(driver.informationUri).toMatch(/^https:\/\//);
    expect(driver.rules.map((r) => r.id)).toEqual(CAPABILITY_RULES.map((r) => r.id));
    for (const rule of driver.rules) {
      const meta = RULES_BY_ID.get(rule.id)!;
      expect(rule.shortDescription.text).toBe(meta.description);
      expect(rule.helpUri).toBe(docsUrl(rule.id));
      expect(rule.defaultConfiguration.level).toBe(
        meta.defaultSeverity === "suggestion" ? "note" : meta.defaultSeverity,
      );
    }
  });

  it("points each result at its rule, file and region, with the hint in the message", async () => {
    const { log } = await sarifRun();
    const json = JSON.parse((await run(["check", "--format", "json"], APP)).stdout) as {
      diagnostics: Array<{
        file: string;
        ruleId: string;
        messageId?: string;
        severity: string;
        message: string;
        hint?: string;
        line: number;
        column: number;
        endLine: number;
        endColumn: number;
      }>;
    };
    const [runLog] = log.runs;
    // The base is the repository holding the working directory (this checkout), as GitHub reads relative URIs.
    // The repository root, without its absolute path on this machine: no file URI of the user's folders in the log.
    expect(runLog!.originalUriBaseIds).toEqual({
      "%SRCROOT%": { description: { text: expect.stringMatching(/repository root/) } },
    });
    expect(JSON.stringify(log)).not.toContain(SOURCE_ROOT);
    expect(runLog!.results).toHaveLength(json.diagnostics.length);
    runLog!.results.forEach((result, i) => {
      const d = json.diagnostics[i]!;
      expect(runLog!.tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
      expect(result.ruleId).toBe(d.ruleId);
      expect(result.level).toBe(d.severity === "suggestion" ? "note" : d.severity);
      expect(result.message.text).toBe(d.hint ? `${d.message}\nhelp: ${d.hint}` : d.message);
      // The rule's message id, for programs (validated with the rest of the log against the SARIF schema).
      expect(d.messageId).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(result.properties?.messageId).toBe(d.messageId);
      const { artifactLocation, region } = result.locations[0]!.physicalLocation;
      const fromRoot = path.relative(SOURCE_ROOT, path.join(APP, d.file)).split(path.sep);
      expect(artifactLocation).toEqual({
        uri: fromRoot.map(encodeURIComponent).join("/"),
        uriBaseId: "%SRCROOT%",
      });
      expect(region).toEqual({
        startLine: d.line,
        startColumn: d.column,
        endLine: d.endLine,
        endColumn: d.endColumn,
      });
    });
    expect(runLog!.results.some((r) => r.message.text.includes("\nhelp: "))).toBe(true);
  });

  it("percent-encodes file names into relative POSIX URIs", async () => {
    const { log } = await sarifRun();
    const uris = log.runs[0]!.results.map(
      (r) => r.locations[0]!.physicalLocation.artifactLocation.uri,
    );
    const app = path.relative(SOURCE_ROOT, APP).split(path.sep).join("/");
    expect(uris).toContain(`${app}/src-tauri/capabilities/odd%20name%2C%20v1.toml`);
    expect(uris).toContain(`${app}/src-tauri/capabilities/main.json`);
    for (const uri of uris) expect(uri).not.toMatch(/^\/|\\|^[a-z]+:/i);
  });

  it("fingerprints each result by rule, file, JSON path and message: unique, and stable when lines move (through the bin)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-sarif-move-"));
    const capability = {
      identifier: "main",
      windows: ["main"],
      remote: { urls: ["http://partner.example.com", "https://*"] },
      permissions: ["core:default", "fs:allow-reed-file", "shell:allow-execute"],
    };
    const lines = JSON.stringify(capability, null, 2);
    const results = async (text: string) => {
      writeFileSync(path.join(dir, "cap.json"), text);
      const out = await checkoutBin.run({
        argv: ["check", "--format", "sarif", "cap.json"],
        cwd: dir,
      });
      expect(out.stderr).toBe("");
      return (JSON.parse(out.stdout) as SarifLog).runs[0]!.results;
    };
    const before = await results(lines);
    const after = await results(lines.replace("{\n", '{\n  "description": "moved down",\n\n\n'));
    expect(before.length).toBeGreaterThan(2);
    const prints = (rs: SarifResult[]) =>
      rs.map((r) => r.partialFingerprints["caplintFindingHash/v1"]);
    expect(new Set(prints(before)).size, "unique per finding").toBe(before.length);
    expect(after.map((r) => r.locations[0]!.physicalLocation.region.startLine)).not.toEqual(
      before.map((r) => r.locations[0]!.physicalLocation.region.startLine),
    );
    expect(prints(after)).toEqual(prints(before));
    for (const print of prints(before)) expect(print).toMatch(/^[0-9a-f]{32}$/);
  });

  it("ranks security rules for code scanning (security-severity, CWE tags, precision) and only those", async () => {
    const { log } = await sarifRun();
    const rules = log.runs[0]!.tool.driver.rules;
    const security = rules
      .filter((r) => r.properties["security-severity"] !== undefined)
      .map((r) => r.id);
    expect(security.sort()).toEqual(
      CAPABILITY_RULES.filter((r) => r.security)
        .map((r) => r.id)
        .sort(),
    );
    expect(security).toEqual(
      expect.arrayContaining(["broad-remote", "dangerous-permission", "insecure-remote"]),
    );
    for (const rule of rules) {
      expect(["very-high", "high", "medium", "low"]).toContain(rule.properties.precision);
      const severity = rule.properties["security-severity"];
      if (severity === undefined) {
        expect(rule.properties.tags).not.toContain("security");
        continue;
      }
      expect(Number(severity)).toBeGreaterThan(0);
      expect(Number(severity)).toBeLessThanOrEqual(10);
      expect(rule.properties.tags[0]).toBe("security");
      expect(
        rule.properties.tags.some((t) => /^external\/cwe\/cwe-\d+$/.test(t)),
        rule.id,
      ).toBe(true);
    }
  });

  it("gives a file outside the working directory an absolute file URI and no base", () => {
    const outside = "/srv/elsewhere/cap.json";
    const diagnostic: Diagnostic = {
      ruleId: "parse",
      severity: "error",
      message: "invalid JSON",
      file: "../../../../srv/elsewhere/cap.json",
      absolutePath: outside,
      path: [],
      range: { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } },
      offset: 0,
      length: 0,
    };
    const log = JSON.parse(
      sarif(
        {
          diagnostics: [diagnostic],
          summary: { files: 1, errors: 1, warnings: 0, suggestions: 0, fixable: 0 },
        },
        {
          cwd: "/work/x",
          paint: NO_PAINT,
          rules: RULES_BY_ID,
          toolVersion: toolVersion(),
          docsUrl,
          sourceText: () => undefined,
        },
      ),
    ) as SarifLog;
    expect(log.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation).toEqual({
      uri: "file:///srv/elsewhere/cap.json",
    });
    const { validateLog, ajv } = validators();
    expect(validateLog(log), ajv.errorsText(validateLog.errors)).toBe(true);
  });

  it("a clean run is a valid log with no results (which closes open alerts on GitHub)", async () => {
    // A file outside any app; inside fixtures/sarif/app it would be checked in that app's context,
    // where its identifier clashes with main.json.
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-sarif-"));
    writeFileSync(
      path.join(dir, "clean.json"),
      JSON.stringify({ identifier: "clean", windows: ["main"], permissions: ["core:default"] }),
    );
    const result = await run(["check", "--format", "sarif", "clean.json"], dir);
    rmSync(dir, { recursive: true, force: true });
    expect(result.code).toBe(0);
    const log = JSON.parse(result.stdout) as SarifLog;
    expect(log.runs[0]!.results).toEqual([]);
    const { validateLog, ajv } = validators();
    expect(validateLog(log), ajv.errorsText(validateLog.errors)).toBe(true);
  });
});
