import { describe, expect, it } from 'vitest';
import { postSrqRecvCases } from '../../suites/post_srq_recv/index.js';
import { referenceModel, runAgainst } from '../helpers.js';

describe('post_srq_recv suite on the reference model', () => {
  it('passes every case (not-observable only where the clause says so)', async () => {
    const runs = await runAgainst(referenceModel(), postSrqRecvCases);
    const statuses = Object.fromEntries(runs.map((r) => [r.case.id, r.status]));
    expect(statuses).toEqual(
      Object.fromEntries(postSrqRecvCases.map((c) => [c.id, c.id === 'post_srq_recv/interrupt-context' ? 'not-observable' : 'pass'])),
    );
  });

});
