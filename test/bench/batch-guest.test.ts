import { describe, expect, it } from 'vitest';
import { runStepsOneByOne } from '../../adapters/batch.js';
import { commands, comparable, inChunks, loopback } from '../../bench/batch-guest.js';
import { referenceModel } from '../helpers.js';
import { modelWorkerAdapter } from '../adapters/remote/model-worker.js';

describe("the batch benchmark's sequence", () => {
  it('runs on a loopback pair through a worker batch as it runs one call at a time on the model: every SEND and its receive completed', async () => {
    const worker = modelWorkerAdapter();
    try {
      const remote = await worker.open();
      const local = await referenceModel().open();
      const batched = await inChunks(remote, commands(await loopback(remote), 10), 7);
      const alone = await runStepsOneByOne(local, commands(await loopback(local), 10));
      expect(comparable(batched)).toEqual(comparable(alone));
      const drains = batched.results.filter((r) => r.call === 'drainCq');
      expect(drains).toHaveLength(10);
      for (const drain of drains) expect(drain).toMatchObject({ result: { completions: [{ status: 'SUCCESS' }, { status: 'SUCCESS' }] } });
      await remote.close();
      await local.close();
    } finally {
      await worker.dispose();
    }
  });
});
