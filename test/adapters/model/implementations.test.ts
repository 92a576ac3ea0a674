import { describe, expect, it } from 'vitest';
import { implementations } from '../../../adapters/model/implementations.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { buildResults } from '../../../reports/build.js';
import { clauses } from '../../../spec/clauses/index.js';
import { allCases } from '../../../suites/index.js';
import { modelWaivers, runAgainst } from '../../helpers.js';

/** Each implementation's run of the suite, once: the cases run on the adapter's own profile, and only the verdicts depend on the profile asked for. */
const runsOf = new Map<string, ReturnType<typeof runAgainst>>();

async function results(name: string, profile: 'documented' | 'rdmavt') {
  const behaviour = implementations[name];
  if (behaviour === undefined) throw new Error(name);
  const adapter = modelAdapter(behaviour, `model:${name}`);
  if (!runsOf.has(name)) runsOf.set(name, runAgainst(adapter, allCases));
  const runs = await (runsOf.get(name) as ReturnType<typeof runAgainst>);
  return buildResults({
    info: await adapter.info(), profile, seed: 0, filter: null, clauses, runs,
    startedAt: new Date(0), finishedAt: new Date(0), interrupted: false, snapshot: null,
    expectations: { file: 'expectations/model.yaml', entries: await modelWaivers() },
  });
}

describe('other implementations as the model takes them (semantics.md section 5)', () => {
  for (const name of Object.keys(implementations)) {
    it(`${name} passes the documented profile and, under rdmavt, fails only reference clauses`, async () => {
      const documented = await results(name, 'documented');
      expect(documented.gate.failures).toEqual([]);
      expect(documented.gate.passed).toBe(true);
      const strict = await results(name, 'rdmavt');
      const failing = strict.clauses.filter((c) => c.status === 'fail' || c.status === 'error');
      for (const clause of failing) expect(clause.level, clause.id).toBe('reference');
    });
  }

  it('rxe fails the rdmavt capacity and check-order clauses with evidence that says why', async () => {
    const strict = await results('rxe', 'rdmavt');
    expect(strict.gate.failures.sort()).toEqual([
      'post_recv.capacity.as-reported',
      'post_recv.order.num_sge-before-full',
      'post_srq_recv.capacity.as-reported',
      // The concurrent model runs on the implementation's ring: rxe's 2^k - 1 holds more than max_wr there too.
      'post_srq_recv.concurrent.capacity-exact',
      'post_srq_recv.order.num_sge-before-full',
    ]);
    const capacity = strict.cases.find((c) => c.id === 'post_srq_recv/fill-to-capacity');
    expect(capacity?.checks.find((k) => k.clause === 'post_srq_recv.capacity.as-reported')).toMatchObject({ expected: 16, actual: 31, status: 'fail' });
    const order = strict.cases.find((c) => c.id === 'post_srq_recv/check-order');
    expect(order?.checks[0]).toMatchObject({ expected: 'EINVAL', actual: 'ENOMEM', status: 'fail' });
  });
});
