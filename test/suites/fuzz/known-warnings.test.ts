import { describe, expect, it } from 'vitest';
import type { CaseWatch, WatchFinding } from '../../../adapters/adapter.js';
import { loadExpectations } from '../../../reports/expectations/load.js';
import { type ExpectedWarning, isSplatId, knownWarning, toleratingKnownWarnings } from '../../../suites/fuzz/known-warnings.js';
import { isFuzzExpectationId } from '../../../suites/fuzz/known-divergences.js';

const FORTIFY: WatchFinding = {
  problem: 'the kernel logged a splat',
  fatal: false,
  lines: [
    '[17.625777] ------------[ cut here ]------------',
    '[17.625851] memcpy: detected field-spanning write (size 56) of single field "&wqe->wr" at drivers/infiniband/sw/rdmavt/qp.c:2041 (size 40)',
    '[17.626165] WARNING: CPU: 0 PID: 172 at drivers/infiniband/sw/rdmavt/qp.c:2041 rvt_post_send+0x7e6/0x8a0 [rdmavt]',
  ],
};
const OTHER = '[18.1] WARNING: CPU: 0 PID: 172 at drivers/infiniband/sw/rdmavt/qp.c:1234 rvt_error_qp+0x10/0x80 [rdmavt]';

const known = await loadExpectations(new URL('../../../expectations/fuzz-rdmavt.yaml', import.meta.url).pathname, { knownIds: { has: isFuzzExpectationId }, today: '2026-12-05' });

/** A watch whose every span ends with `finding`. */
const watchSeeing = (finding: WatchFinding | undefined): CaseWatch => ({ start: () => ({ end: () => finding }) });

describe('known kernel warnings while fuzzing (expectations/fuzz-rdmavt.yaml)', () => {
  it("loads the shipped file: rdmavt 6.1's FORTIFY warning, rdmavt's lost flush after a modify to ERR or a responder's error races its engine, and its SRQ resize lockup", () => {
    expect(known.map((e) => e.id)).toEqual(['splat:drivers/infiniband/sw/rdmavt/qp.c:2041', expect.stringMatching(/^divergence:.*RETRY_EXC_ERR/), expect.stringMatching(/^divergence:.*"WR_FLUSH_ERR","qp":1/), expect.stringMatching(/^fatal:.*rvt_get_rwqe/), expect.stringMatching(/^fatal:\^no answer/)]);
  });

  it('tolerates a warning every splat line of which an entry names, and records it', () => {
    const met: ExpectedWarning[] = [];
    const watch = toleratingKnownWarnings(watchSeeing(FORTIFY), known, met);
    expect(watch?.start().end()).toBeUndefined();
    expect(met).toEqual([{ id: 'splat:drivers/infiniband/sw/rdmavt/qp.c:2041', problem: FORTIFY.problem }]);
  });

  it('never tolerates an oops, another warning beside the known one, or a finding without a splat line', () => {
    expect(knownWarning({ ...FORTIFY, fatal: true }, known)).toBeUndefined();
    expect(knownWarning({ ...FORTIFY, lines: [...FORTIFY.lines, OTHER] }, known)).toBeUndefined();
    expect(knownWarning({ problem: 'no answer within 10000 ms', lines: [], fatal: true }, known)).toBeUndefined();
    const met: ExpectedWarning[] = [];
    const other = { ...FORTIFY, lines: [OTHER] };
    expect(toleratingKnownWarnings(watchSeeing(other), known, met)?.start().end()).toBe(other);
    expect(met).toEqual([]);
  });

  it('leaves the watch as it is without known warnings', () => {
    const watch = watchSeeing(FORTIFY);
    expect(toleratingKnownWarnings(watch, [], [])).toBe(watch);
  });

  it("refuses an id that is no 'splat:<text>' in a fuzz expectations file", () => {
    expect(isSplatId('splat:qp.c:2041')).toBe(true);
    expect(isSplatId('splat:')).toBe(false);
    expect(isSplatId('post_send/rdma-write')).toBe(false);
  });
});
