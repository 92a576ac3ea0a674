// The device fuzz through the relay going on after a known fatal finding, end to end: an
// expectations file that calls rdmavt 6.1's FORTIFY WARN (qp.c:2041, once per boot at the first
// RDMA or atomic send) fatal makes each run that meets it end its boot, and the next boot go on
// from the next run of the same seed; fuzz.json adds the boots up. About 10 s a boot.
// Run alone with: npx vitest run --project vm test/cli/fuzz-boots.vm.test.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FuzzFile } from '../../reports/fuzz-file.js';
import { resolveKernel } from '../../vm/kernel.js';
import { projectRoot } from '../../vm/project-root.js';
import { VM_TEST_TIMEOUT_MS, vmSkipReason } from '../vm/helpers.js';

const FORTIFY = 'fatal:WARNING: CPU: \\d+ PID: \\d+ at drivers/infiniband/sw/rdmavt/qp\\.c:2041';
const RUNS = 3;
// The WARN is 6.1's; 6.12 copies a UD WR without it.
const skip = vmSkipReason ?? (resolveKernel().release.startsWith('6.1.') ? undefined : 'the default kernel is not 6.1');

describe.skipIf(skip !== undefined)(`fuzz through the relay after a known fatal finding${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const work = mkdtempSync(join(tmpdir(), 'rvt-fuzz-boots-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it(
    'ends the boot of each run that meets it, goes on in a new one from the next run, and writes one fuzz.json for all',
    () => {
      const expectations = join(work, 'fatal.yaml');
      writeFileSync(expectations, `expectations:\n  - id: '${FORTIFY}'\n    status: fail\n    reason: this test's own, to make a new boot after each run that meets the WARN\n    link: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/drivers/infiniband/sw/rdmavt/qp.c?h=v6.1#n2041\n`);
      const { stderr, status } = spawnSync(process.execPath, [join(projectRoot(), 'dist/cli/main.js'), 'fuzz', '--adapter', 'kernel', '--device', 'rvt_sim0', '--vm', '--profile', 'rdmavt', '--seed=4301', '--runs', String(RUNS), '--expectations', expectations, '--out', 'out'], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
      expect(status, stderr).toBe(0);
      const file = FuzzFile.parse(JSON.parse(readFileSync(join(work, 'out/fuzz.json'), 'utf8')));
      const met = file.expectedFindings ?? [];
      // seed 4301 sends an RDMA in every run's first batches (BENCHMARKS: its first batch met the WARN)
      expect(met.map((f) => [f.id, f.run])).toEqual(Array.from({ length: RUNS }, (_, i) => [FORTIFY, i + 1]));
      expect(met.every((f) => f.lines.some((line) => line.includes('qp.c:2041')))).toBe(true);
      expect([file.seed, file.runs, file.divergence, file.finding]).toEqual([4301, RUNS, null, null]);
      expect(stderr).toMatch(/run 1 met a known fatal finding .*: a new boot goes on from run 2/);
      expect(stderr).toMatch(/run 2 met a known fatal finding .*: a new boot goes on from run 3/);
    },
    VM_TEST_TIMEOUT_MS,
  );
});
