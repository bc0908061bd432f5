import { spawnSync } from "node:child_process";
import path from "node:path";
import { cleanEnv } from "./release.js";
import { ROOT } from "./run.js";

/**
 * `caplint check --format json` through the built bin in `dir`, with `env` over a clean environment:
 * its exit code, standard error, the report's notes, and each finding as "severity ruleId: message".
 */
export function checkJson(dir: string, env: Record<string, string>, ...args: string[]) {
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, "bin", "caplint.js"), "check", "--format", "json", ...args],
    { cwd: dir, encoding: "utf8", env: cleanEnv(env) },
  );
  const report = JSON.parse(result.stdout) as {
    diagnostics: Array<{ ruleId: string; severity: string; message: string }>;
    summary: { notes: string[] };
  };
  return {
    code: result.status,
    stderr: result.stderr,
    notes: report.summary.notes,
    findings: report.diagnostics.map((d) => `${d.severity} ${d.ruleId}: ${d.message}`),
  };
}
