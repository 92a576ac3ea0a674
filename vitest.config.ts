import { defineConfig } from 'vitest/config';

// Three projects: `unit` is `npm test` (no VM, about a minute); `vm` boots QEMU guests
// (`npm run test:vm`, minutes each, one VM at a time); `package` packs the tarball and installs it
// into an empty folder (`npm run test:package`). .ci/run runs the last two as tiers of their own.
const VM_TESTS = 'test/**/*.vm.test.ts';
const PACKAGE_TESTS = 'test/**/*.package.test.ts';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
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
