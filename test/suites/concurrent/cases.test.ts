import { describe, expect, it } from 'vitest';
import { RecordKind } from '../../../adapters/concurrent.js';
import type { Behaviour } from '../../../adapters/model/behaviour.js';
import { concurrentOutcomes } from '../../../adapters/model/concurrent/outcomes.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { rdmavt } from '../../../adapters/model/rdmavt.js';
import { concurrentCases } from '../../../suites/concurrent/cases.js';
import { runAgainst } from '../../helpers.js';
import { hideExercise, perRecord } from '../../reports/lying-adapters.js';

/** The model, with its concurrent histories' records passed through `edit`. */
function editedModel(edit: (records: readonly number[]) => number[]) {
  const behaviour: Behaviour = {
    ...rdmavt,
    intercept: { runConcurrent: (_state, plan, next) => {
      const out = next(plan);
      return { ...out, records: edit(out.records) };
    } },
  };
  return modelAdapter(behaviour, 'edited', concurrentOutcomes({ maxEntries: 0 }));
}

const casesNamed = (...names: string[]) => concurrentCases.filter((c) => names.some((n) => c.id === `concurrent/${n}`));
const checksOf = async (adapter: ReturnType<typeof modelAdapter>, ...names: string[]) => (await runAgainst(adapter, casesNamed(...names))).flatMap((run) => run.checks);

describe('the concurrent cases judge each clause on what the history exercised', () => {
  it('pass a clause the run exercised, with the history counted by kind as evidence', async () => {
    const [run] = await runAgainst(modelAdapter(), casesNamed('posters-and-consumers'));
    expect(run?.status).toBe('pass');
    const enomem = run?.checks.find((c) => c.clause === 'post_srq_recv.concurrent.enomem-when-full');
    expect(enomem?.status).toBe('pass');
    const history = (enomem?.actual as { history: Record<string, number> }).history;
    expect(history).toMatchObject({ receives: 8000, resizes: 0, arms: 0, 'limit events': 0 });
    expect(history.posts).toBeGreaterThan(history['posts refused'] as number);
    expect(history['posts refused']).toBeGreaterThan(0);
  });

  it('report not-observable, with the reason, a clause whose operations the history lacks', async () => {
    // No refusal and no placement checked (hideExercise): those clauses cannot have been broken.
    const edited = editedModel(hideExercise);
    const checks = await checksOf(edited, 'posters-and-consumers', 'payload-placement');
    const byClause = (clause: string) => checks.filter((c) => c.clause === clause);
    for (const clause of ['post_srq_recv.concurrent.enomem-when-full', 'post_srq_recv.concurrent.capacity-exact', 'post_srq_recv.concurrent.lands-in-own-sges']) {
      expect(byClause(clause).map((c) => c.status)).toEqual(['not-observable']);
      expect(byClause(clause)[0]?.reason).toMatch(/^this run did not exercise it: .* \(\d+ operations\)$/);
    }
    expect(byClause('post_srq_recv.concurrent.enomem-when-full')[0]?.reason).toMatch(/no post was refused with ENOMEM/);
    expect(byClause('post_srq_recv.concurrent.lands-in-own-sges')[0]?.reason).toMatch(/does not check data placement/);
    expect(byClause('post_srq_recv.concurrent.exactly-once').map((c) => c.status)).toEqual(['pass', 'pass']);
  });

  it('count the limit clauses exercised only by successful arms and limit events', async () => {
    // Every arm refused (errno EINVAL) and every event dropped: neither limit clause had anything to judge.
    const edited = editedModel(
      perRecord((r) => {
        if (r[1] === RecordKind.LIMIT_EVENT) return undefined;
        return r[1] === RecordKind.ARM ? [...r.slice(0, 5), 22, 0, 0] : r;
      }),
    );
    const checks = await checksOf(edited, 'limit-while-consuming');
    expect(Object.fromEntries(checks.map((c) => [c.clause, c.status]))).toEqual({
      'srq_limit.concurrent.once-per-arm': 'not-observable',
      'srq_limit.concurrent.fires-below': 'not-observable',
      'srq_limit.concurrent.not-above': 'not-observable',
    });
    expect(checks.find((c) => c.clause === 'srq_limit.concurrent.once-per-arm')?.reason).toMatch(/no arming of the limit succeeded/);
    expect(checks.find((c) => c.clause === 'srq_limit.concurrent.not-above')?.reason).toMatch(/no limit event was read/);
  });
});
