import { describe, expect, it } from 'vitest';
import { mutants, mutationAdapters } from '../../../adapters/mutants/index.js';
import { allCases } from '../../../suites/index.js';
import { runMutation } from '../../../suites/mutation.js';

/** Named cases that particular seeded faults must fail: proof that those cases can fail. */
const MUST_FAIL: Record<string, string[]> = {
  'posts-failing-wr': ['post_srq_recv/bad-wr-in-middle', 'post_srq_recv/bad-wr-first'],
  'bad-wr-unset': ['post_srq_recv/bad-wr-in-middle', 'post_srq_recv/bad-wr-first', 'post_srq_recv/num_sge-above-max'],
  'capacity-plus-one': ['post_srq_recv/fill-to-capacity', 'post_srq_recv/overfill-in-one-list'],
  'capacity-minus-one': ['post_srq_recv/fill-to-capacity', 'post_srq_recv/overfill-in-one-list'],
  'post-recv-in-reset': ['post_recv/state-reset-rejects'],
  'post-recv-on-srq-qp': ['post_recv/srq-attached-rejected'],
  'post-send-in-rtr': ['post_send/state-rtr-rejects'],
  'sqd-starts-sends': ['post_send/sqd-queues'],
  'unsignaled-completes': ['post_send/unsignaled'],
  'limit-at-or-below': ['srq_limit/fires-below'],
  'limit-never-disarmed': ['srq_limit/once-then-disarmed'],
  'srq-flushed-on-error': ['error_qp/srq-not-flushed'],
  'no-last-wqe-event': ['error_qp/last-wqe-reached'],
  'modify-applies-unmasked': ['modify_qp/only-masked-applied'],
  'modify-values-unchecked': ['modify_qp/value-retry-cnt-8', 'modify_qp/value-rnr-retry-8', 'modify_qp/value-dest-qp-num-0x1000000'],
  'create-qp-all-zero-accepted': ['create_qp/all-caps-zero'],
  'send-num-sge-unsigned': ['post_send/num_sge-negative'],
  'rnr-finite-fails-at-once': ['rnr/finite-retry-on-timer'],
  'cq-overrun-not-sticky': ['cq/overrun-sticky'],
  'create-cq-zero-accepted': ['create_cq/cqe-zero'],
  'dereg-ignores-users': ['dereg_mr/in-use-errors-qp'],
  'dereg-busy': ['dereg_mr/in-use-errors-qp'],
  'error-schedules-busy-engine': ['post_send/self-connected-error-once'],
  'sqd-to-rts-restarts-sends': ['modify_qp/sqd-to-rts-no-restart'],
  'cq-overflow-keeps-qp': ['cq/overflow-errors-qp'],
  'err-to-err-flushes': ['modify_qp/err-to-err-no-flush'],
  'rnr-retries-spent-at-once': ['rnr/finite-retries-spent-over-time'],
  'dereg-refs-ignored': ['dereg_mr/stalled-refs-ebusy'],
  'send-byte-len-missing': ['post_send/completion-byte-len'],
  'sqd-stall-survives-error': ['error_qp/sqd-queued-send-flushed'],
  'reset-keeps-connection': ['modify_qp/reset-forgets-connection', 'modify_qp/ud-reset-forgets-qkey'],
};

describe('mutation: every seeded fault is caught', async () => {
  const { reference, adapterOf } = mutationAdapters();
  const report = await runMutation(reference, mutants, adapterOf, allCases, {
    knownFailures: new Set(['post_send.state.bad_wr', 'modify_qp.reset.empties-queues', 'comm_est.first-receive-in-rtr']),
    knownErrors: new Set(['post_send/empty-list']),
  });

  it('the unmodified model passes every case but those of the documented clauses rdmavt breaks (and the empty send list it oopses on)', () => {
    const gates = ['reset', 'init', 'rtr'].map((state) => `post_send/state-${state}-rejects`);
    expect(report.baseline.failed).toEqual([]);
    expect(report.baseline.errors).toEqual([]);
    expect([...report.baseline.known].sort()).toEqual([...gates, 'modify_qp/reset-empties-rq', 'post_send/empty-list', 'comm_est/first-receive-in-rtr'].sort());
  });

  it('has at least 25 mutants and kills them all (a survivor is a missing case)', () => {
    expect(report.mutants.length).toBeGreaterThanOrEqual(25);
    expect(report.survived).toEqual([]);
    expect(report.score).toBe(1);
  });

  it('seeds at least two faults in every verb with cases', () => {
    const verbs = new Set(allCases.map((c) => c.verb));
    for (const verb of verbs) expect(report.mutants.filter((m) => m.verb === verb).length, verb).toBeGreaterThanOrEqual(2);
  });

  it('says which mutants die under --profile documented: a documented bug does, an rdmavt detail does not', () => {
    const documented = (name: string) => report.mutants.find((m) => m.name === name)?.killedByDocumented ?? [];
    expect(documented('posts-failing-wr')).toEqual(expect.arrayContaining(['post_srq_recv/bad-wr-in-middle']));
    expect(documented('send-num-sge-unsigned')).toEqual([]);
    expect(documented('create-cq-zero-accepted')).toEqual([]);
    for (const m of report.mutants) expect(m.killedBy).toEqual(expect.arrayContaining(m.killedByDocumented));
  });

  for (const [name, cases] of Object.entries(MUST_FAIL)) {
    it(`${name} is failed by ${cases.join(', ')}`, () => {
      expect(report.mutants.find((m) => m.name === name)?.killedBy).toEqual(expect.arrayContaining(cases));
    });
  }
});
