import { describe, expect, it } from 'vitest';
import { mutantAdapter, mutants } from '../../../adapters/mutants/index.js';
import { allCases } from '../../../suites/index.js';
import { runAgainst } from '../../helpers.js';

/** Which named cases each seeded fault must fail: proof that those cases can fail. */
const MUST_FAIL: Record<string, string[]> = {
  'posts-failing-wr': ['post_srq_recv/bad-wr-in-middle', 'post_srq_recv/bad-wr-first'],
  'bad-wr-unset': ['post_srq_recv/bad-wr-in-middle', 'post_srq_recv/bad-wr-first', 'post_srq_recv/num_sge-above-max'],
  'capacity-plus-one': ['post_srq_recv/fill-to-capacity', 'post_srq_recv/overfill-in-one-list'],
  'capacity-minus-one': ['post_srq_recv/fill-to-capacity', 'post_srq_recv/overfill-in-one-list'],
};

describe('seeded faults are caught by named cases', () => {
  for (const mutant of mutants) {
    it(`${mutant.name}: ${mutant.description}`, async () => {
      const runs = await runAgainst(mutantAdapter(mutant), allCases);
      const failed = runs.filter((r) => r.status === 'fail').map((r) => r.case.id);
      expect(MUST_FAIL[mutant.name], `no expectation written for mutant ${mutant.name}`).toBeDefined();
      expect(failed).toEqual(expect.arrayContaining(MUST_FAIL[mutant.name] ?? []));
      expect(runs.filter((r) => r.status === 'error')).toEqual([]);
    });
  }
});
