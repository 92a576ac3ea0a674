import { describe, expect, it } from 'vitest';
import { rdmavt } from '../../../adapters/model/rdmavt.js';
import { newModelState } from '../../../adapters/model/device.js';
import { createSrq, destroySrq, modifySrq, postSrqRecv, querySrqAttr } from '../../../adapters/model/srq.js';
import { RecvWr } from '../../../spec/verbs/wr.js';

function setup(max_wr = 4, max_sge = 1) {
  const state = newModelState(rdmavt);
  state.pds.add(1);
  const created = createSrq(state, 1, { max_wr, max_sge, srq_limit: 0 });
  if (created.srq === null) throw new Error('create failed');
  const srq = created.srq;
  const wr = (id: number, num_sge?: number) => RecvWr.parse({ wr_id: BigInt(id), ...(num_sge === undefined ? {} : { num_sge }) });
  return { state, srq, wr };
}

describe('model SRQ (rvt_*_srq, rvt_post_srq_recv)', () => {
  it('rejects create with max_wr 0, max_sge 0 or above the device limits with -EINVAL', () => {
    const state = newModelState(rdmavt);
    state.pds.add(1);
    const limits = state.attr;
    for (const attr of [
      { max_wr: 0, max_sge: 1 },
      { max_wr: 1, max_sge: 0 },
      { max_wr: limits.max_srq_wr + 1, max_sge: 1 },
      { max_wr: 1, max_sge: limits.max_srq_sge + 1 },
    ]) {
      expect(createSrq(state, 1, { ...attr, srq_limit: 0 })).toEqual({ rawReturn: -22, srq: null, attr: null });
    }
  });

  it('holds exactly max_wr WQEs and then returns -ENOMEM with bad_wr at the first that does not fit', () => {
    const { state, srq, wr } = setup(4);
    expect(postSrqRecv(state, srq, [1, 2, 3].map((i) => wr(i)))).toEqual({ rawReturn: 0, badWr: 'untouched' });
    expect(postSrqRecv(state, srq, [4, 5, 6].map((i) => wr(i)))).toEqual({ rawReturn: -12, badWr: 1 });
    expect(state.srqs.get(srq)?.rq.ring.toArray().map((w) => w.wr_id)).toEqual([1n, 2n, 3n, 4n]);
  });

  it('checks num_sge before fullness, unsigned, and accepts 0', () => {
    const { state, srq, wr } = setup(1, 2);
    expect(postSrqRecv(state, srq, [wr(1, -1)])).toEqual({ rawReturn: -22, badWr: 0 });
    expect(postSrqRecv(state, srq, [wr(1, 0)])).toEqual({ rawReturn: 0, badWr: 'untouched' });
    expect(postSrqRecv(state, srq, [wr(2, 3)])).toEqual({ rawReturn: -22, badWr: 0 });
    expect(postSrqRecv(state, srq, [wr(2, 2)])).toEqual({ rawReturn: -12, badWr: 0 });
  });

  it('resizes keeping queued WQEs in order, refuses to shrink below them, and a failed modify changes nothing', () => {
    const { state, srq, wr } = setup(4);
    postSrqRecv(state, srq, [1, 2, 3].map((i) => wr(i)));
    expect(modifySrq(state, srq, { max_wr: 2 }, ['MAX_WR'])).toBe(-22);
    expect(modifySrq(state, srq, { max_wr: 8, srq_limit: 9 }, ['MAX_WR', 'LIMIT'])).toBe(-22);
    const entry = state.srqs.get(srq);
    if (!entry) throw new Error('srq gone');
    expect(querySrqAttr(state, entry)).toEqual({ max_wr: 4, max_sge: 1, srq_limit: 0 });
    expect(modifySrq(state, srq, { max_wr: 3 }, ['MAX_WR'])).toBe(0);
    expect(entry.rq.ring.toArray().map((w) => w.wr_id)).toEqual([1n, 2n, 3n]);
    expect(modifySrq(state, srq, { srq_limit: 4 }, ['LIMIT'])).toBe(-22);
    expect(modifySrq(state, srq, { srq_limit: 3 }, ['LIMIT'])).toBe(0);
    expect(querySrqAttr(state, entry).srq_limit).toBe(3);
  });

  it('refuses to destroy an SRQ that a QP still uses', () => {
    const { state, srq } = setup();
    const entry = state.srqs.get(srq);
    if (!entry) throw new Error('srq gone');
    entry.attachedQps = 1;
    expect(destroySrq(state, srq)).toBe(-16);
    entry.attachedQps = 0;
    expect(destroySrq(state, srq)).toBe(0);
  });
});
