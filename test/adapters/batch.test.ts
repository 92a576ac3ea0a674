import { describe, expect, it } from 'vitest';
import { BatchArgs, runStepsOneByOne } from '../../adapters/batch.js';
import { modelAdapter } from '../../adapters/model/index.js';

describe('a batch run step by step', () => {
  it('answers every step in order, a refused post being a result like any other', async () => {
    const session = await modelAdapter().open();
    const { pd } = await session.allocPd({});
    const { srq } = await session.createSrq({ pd: pd ?? 0, attr: { max_wr: 2, max_sge: 1, srq_limit: 0 } });
    const wr = (wr_id: bigint) => ({ wr_id, sg_list: [], num_sge: 0 });
    const { steps } = BatchArgs.parse({
      steps: [
        { call: 'postSrqRecv', args: { srq, wrs: [wr(1n), wr(2n), wr(3n)] } },
        { call: 'querySrq', args: { srq } },
      ],
    });
    const { results } = await runStepsOneByOne(session, steps);
    expect(results.map((r) => r.call)).toEqual(['postSrqRecv', 'querySrq']);
    const post = results[0] as { result: { rawReturn: number; badWr?: unknown } };
    expect(post.result.rawReturn).not.toBe(0);
    await session.close();
  });

  it('stops at a step that cannot be executed, and says which', async () => {
    const session = await modelAdapter().open();
    const { results } = await runStepsOneByOne(session, [
      { call: 'querySrq', args: { srq: 4242 } },
      { call: 'queryDevice', args: {} },
    ]);
    expect(results).toHaveLength(1);
    expect(results[0]).toHaveProperty('error');
    await session.close();
  });

  it('refuses a step the schema does not know', () => {
    expect(BatchArgs.safeParse({ steps: [{ call: 'runConcurrent', args: {} }] }).success).toBe(false);
  });
});
