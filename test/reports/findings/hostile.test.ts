import { beforeAll, describe, expect, it } from 'vitest';
import { collectFindings, type LoadedRun } from '../../../reports/findings/collect.js';
import { readResults } from '../../../reports/read-results.js';
import { HOSTILE_RUNS } from './fixture.js';


describe('findings: the hostile tier', () => {
  let runs: LoadedRun[];
  beforeAll(async () => {
    runs = await Promise.all(HOSTILE_RUNS.map(async (path) => ({ path, results: await readResults(path) })));
  });

  it("titles each oops by the kernel's BUG line and the function it was in, not by the scenario's marker before it", () => {
    const { findings } = collectFindings(runs);
    expect(findings.map((f) => f.title).sort()).toEqual([
      'rvt_get_rwqe: BUG: unable to handle page fault',
      'rvt_lkey_ok: BUG: kernel NULL pointer dereference',
      'rvt_modify_srq: BUG: unable to handle page fault',
    ]);
  });

  it("gives each its reproducer from the run: the hostile program and its scenario, in the finding's folder, attached to the draft report", () => {
    const { findings } = collectFindings(runs);
    const over = findings.find((f) => f.cases.includes('hostile_user/rq-num-sge-over'));
    expect(over?.reproducers).toHaveLength(1);
    const [r] = over?.reproducers ?? [];
    expect(r).toMatchObject({ kind: 'hostile', scenario: 'rq-num-sge-over', device: 'rvt_sim0', dir: expect.stringMatching(/^\d-rvt-lkey-ok-bug-kernel-null-pointer-dereference$/) });
    expect(r?.files.map((f) => f.name)).toEqual(['hostile.c', 'scenario']);
    expect(r?.files[0]?.text).toContain('SPDX-License-Identifier');
    expect(r?.files[1]?.text).toBe('rq-num-sge-over\n');
    expect(over?.report.body).toContain('cc -Wall -O2 -o hostile hostile.c -libverbs -lpthread && ./hostile -d rvt_sim0 rq-num-sge-over');
    expect(over?.report.body).toMatch(/Reproducer:\n {2}hostile\.c, scenario: the hostile tier's program/);
  });
});
