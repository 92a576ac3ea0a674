import { concurrentOutcomes } from '../adapters/model/concurrent/outcomes.js';
import { modelAdapter } from '../adapters/model/index.js';
import { rdmavt } from '../adapters/model/rdmavt.js';
import { forgetCheckedHistories } from '../suites/concurrent/checker.js';
import { allCases } from '../suites/index.js';
import { runCases } from '../suites/runner.js';
import { emit, type Figure, time } from './measure.js';

/**
 * Suite runner time on the model, per verb and in total (median of 15 after a warm-up run). Each
 * run computes and checks the concurrent histories, as a process's only run does: nothing is kept
 * from one run for the next.
 */
async function main(): Promise<void> {
  const adapter = modelAdapter(rdmavt, 'model', concurrentOutcomes({ maxEntries: 0 }));
  const info = await adapter.info();
  const run = (cases: typeof allCases) => {
    forgetCheckedHistories();
    return runCases({ adapter, info, cases, profile: 'rdmavt', timeoutMs: 10_000 });
  };
  await run(allCases);
  const figures: Figure[] = [];
  const command = 'npm run bench (bench/suite.ts)';
  for (const verb of [...new Set(allCases.map((c) => c.verb))]) {
    const t = await time(() => run(allCases.filter((c) => c.verb === verb)), 15);
    const target = verb === 'post_srq_recv' ? { text: '< 1000 ms (issue 2)', met: t.medianMs < 1000 } : undefined;
    figures.push({ name: `suite on model: ${verb}`, value: t.medianMs, unit: 'ms', ...(target ? { target } : {}), command });
  }
  const total = await time(() => run(allCases), 15);
  figures.push({ name: `suite on model: all ${allCases.length} cases`, value: total.medianMs, unit: 'ms', target: { text: '< 2000 ms (issue 4)', met: total.medianMs < 2000 }, command });
  emit('suite', figures);
}

await main();
