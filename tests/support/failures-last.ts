import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * Names what failed once more as the run's very last lines, on standard output: the default
 * reporter writes its failures to standard error, which a log cut to its tail (CI's) leaves out.
 */
export default class FailuresLast implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    const firstLine = (error: { message?: string } | undefined) => (error?.message ?? '').split('\n')[0];
    const lines: string[] = [];
    for (const module of modules) {
      for (const error of module.errors()) lines.push(`${module.relativeModuleId}: ${firstLine(error)}`);
      for (const test of module.children.allTests('failed')) {
        const result = test.result();
        const error = result.state === 'failed' ? result.errors[0] : undefined;
        lines.push(`${module.relativeModuleId} > ${test.fullName}: ${firstLine(error)}`);
      }
    }
    for (const error of unhandled) lines.push(`unhandled: ${firstLine(error)}`);
    if (lines.length > 0)
      process.stdout.write(`\nFailed (${lines.length}):\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
  }
}
