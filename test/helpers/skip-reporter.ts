import type { Reporter, TestModule, Vitest } from "vitest/node";

/**
 * Prints, after the default output, every skipped test and why it was skipped: the note of
 * `ctx.skip(condition, note)`, or the reason in the name of a suite skipped for a missing tool
 * (describeWithTool). The default reporter names a skipped test only when its file failed, so a
 * green run would hide what it did not test. Tests left out by a `-t` pattern are not listed.
 */
export default class SkipReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const pattern = this.vitest?.config.testNamePattern;
    const lines: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests("skipped")) {
        const name = `${test.module.moduleId.slice(this.vitest!.config.root.length + 1)} > ${test.fullName}`;
        if (pattern && !pattern.test(test.fullName)) continue;
        const note =
          test.result().state === "skipped" ? (test.result() as { note?: string }).note : undefined;
        const reason = note ?? (/\[skipped: /.test(test.fullName) ? undefined : "no reason given");
        lines.push(`  ↓ ${name}${reason ? ` — ${reason}` : ""}`);
      }
    }
    if (lines.length === 0) return;
    const log = (text: string) => (this.vitest ? this.vitest.logger.log(text) : console.log(text));
    log(`\n Skipped (${lines.length}), and why:\n${lines.join("\n")}\n`);
  }
}
