import { describe, expect, it } from 'vitest';
import { citedText, clauseCitations } from '../../spec/citations.js';
import { clauseById, clauses } from '../../spec/clauses/index.js';
import { loadCitedSnapshot } from '../../spec/snapshots/pinned.js';

describe('traceability: every kernel-doc citation resolves in the pinned snapshot', () => {
  const snapshot = loadCitedSnapshot();
  for (const clause of clauses) {
    for (const source of clause.sources) {
      if (source.kind !== 'kernel-doc') continue;
      it(`${clause.id} -> ${source.function}() ${source.section}`, () => {
        expect(citedText(snapshot, source)).toHaveProperty('text');
      });
    }
  }

  it('gives the exact text the kernel documents for rvt_post_srq_recv', () => {
    const cite = (id: string) => clauseCitations(snapshot, clauseById.get(id) ?? clauses[0]!).map((c) => c.text);
    expect(cite('post_srq_recv.return.zero-on-success')).toEqual(['0 on success else errno']);
    // rdmavt's own text, then the core wrapper's in include/rdma/ib_verbs.h (another pinned set).
    expect(cite('post_srq_recv.bad_wr.first-failing')).toEqual([
      'A pointer to the first WR to cause a problem is put here',
      'On an immediate failure, this parameter will reference\nthe work request that failed to be posted on the QP.',
    ]);
    expect(cite('post_srq_recv.context.interrupt')).toEqual(['This may be called from interrupt context.']);
  });

  it('reports an unknown function or section instead of inventing text', () => {
    const base = { kind: 'kernel-doc' as const, file: 'drivers/infiniband/sw/rdmavt/qp.c' };
    expect(citedText(snapshot, { ...base, function: 'rvt_nonesuch', section: 'Return' })).toEqual({ error: 'rvt_nonesuch() is not documented in drivers/infiniband/sw/rdmavt/qp.c' });
    expect(citedText(snapshot, { ...base, function: 'rvt_post_srq_recv', section: 'Context' })).toEqual({ error: 'rvt_post_srq_recv() has no Context section' });
    expect(citedText(snapshot, { ...base, function: 'rvt_post_srq_recv', section: '@nope' })).toHaveProperty('error');
  });
});
