import { defineConfig } from 'vitest/config';

// Two projects: `unit` is `npm test` (no VM, about a minute); `vm` boots QEMU guests
// (`npm run test:vm`, minutes each, one VM at a time), which .ci/run runs as its own tier.
const VM_TESTS = 'test/**/*.vm.test.ts';

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
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [VM_TESTS], testTimeout: 30_000, isolate: false } },
      // One VM at a time: the machine has two cores and the guests run under TCG.
      { extends: true, test: { name: 'vm', include: [VM_TESTS], testTimeout: 300_000, fileParallelism: false } },
    ],
  },
});
