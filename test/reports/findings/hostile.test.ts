import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectFindings, type LoadedRun } from '../../../reports/findings/collect.js';
import { readResults } from '../../../reports/read-results.js';

/** The hostile tier as CI's VM left it on 6.1 and 6.12: three scenarios oopsed rdmavt, four passed. */
export const HOSTILE_RUNS = ['hostile-6.1.json', 'hostile-6.12.json'].map((name) => join(import.meta.dirname, '../../fixtures/findings', name));

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
});
