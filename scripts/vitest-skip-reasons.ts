import { relative } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";

/**
 * A vitest reporter beside the default one: at the end of a run, one line per
 * skipped test saying which and why (the note of `ctx.skip(note)`, or the
 * test's name, which then must say it), so a skip is never silent. Quiet when
 * the run was narrowed with -t, where every other test is "skipped" by choice.
 */
export default class SkipReasons implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const vitest = this.vitest;
    if (!vitest || vitest.config.testNamePattern !== undefined) return;
    const lines: string[] = [];
    for (const module of modules) {
      for (const test of module.children.allTests("skipped")) {
        const result = test.result();
        if (result.state !== "skipped" || test.options.mode === "todo") continue;
        const where = relative(vitest.config.root, module.moduleId);
        lines.push(`  ${where} > ${test.fullName}${result.note ? `: ${result.note}` : ""}`);
      }
    }
    if (lines.length === 0) return;
    vitest.logger.log(`\nSkipped, each with its reason (${lines.length}):\n${lines.join("\n")}\n`);
  }
}
