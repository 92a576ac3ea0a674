import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Three projects: `unit` is `npm test` (no VM, about a minute); `vm` boots QEMU guests
// (`npm run test:vm`, minutes each, one VM at a time); `package` packs the tarball and installs it
// into an empty folder (`npm run test:package`). .ci/run runs the last two as tiers of their own.
const VM_TESTS = 'test/**/*.vm.test.ts';
const PACKAGE_TESTS = 'test/**/*.package.test.ts';

/**
 * The unit files that keep one worker busy longest (teeth.test.ts runs the suite against 67
 * mutants), started first. Vitest orders files by the durations of the last run on this machine,
 * and by size when it has none: on a fresh clone the mutation file, a small one, came last and ran
 * alone for 20 s while the other worker idled.
 */
const LONGEST = ['test/adapters/mutants/teeth.test.ts', 'test/adapters/grpc/hostile.test.ts', 'test/reports/reports.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((path) => file.moduleId.endsWith(path));
      return at === -1 ? LONGEST.length : at;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    sequence: { sequencer: LongestFirst },
    // Both cores: vitest keeps one free by default, which on these 2-core machines ran the files one by one.
    maxWorkers: 2,
    // The CLIs these tests start must not take this run for the user's CI job (annotations, step summary).
    env: { GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '' },
    projects: [
      // One module graph per worker rather than per file: loading the project's modules again for
      // each of 55 files cost a third of the run.
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [VM_TESTS, PACKAGE_TESTS], testTimeout: 30_000, isolate: false } },
      // One VM at a time: the machine has two cores and the guests run under TCG.
      { extends: true, test: { name: 'vm', include: [VM_TESTS], testTimeout: 300_000, fileParallelism: false } },
      // It boots one VM from the installed package, as a user of the tarball would.
      { extends: true, test: { name: 'package', include: [PACKAGE_TESTS], testTimeout: 600_000, hookTimeout: 600_000, fileParallelism: false } },
    ],
  },
});
