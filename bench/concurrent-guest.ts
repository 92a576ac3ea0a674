/**
 * The in-VM half of bench/concurrent-device.ts: issue 17's target workload (4 posters, 4 consumers,
 * 100,000 WRs on one SRQ) through the native engine (libibverbs) and through the kernel verbs
 * (rvtc's kthreads), each history then checked; prints one JSON line. Arguments: the device
 * (rxe0), how many seeds to run (1), and the resizes per run (4): many seeds and resizes make it
 * a stress run for races that a single case meets rarely.
 */
import { openControl } from '../adapters/kernel/device-adapter.js';
import { openKernelSession } from '../adapters/kernel/session.js';
import type { Session } from '../adapters/adapter.js';
import { loadBinding } from '../adapters/ibverbs/native/index.js';
import { openNativeSession } from '../adapters/ibverbs/native-session.js';
import { checkHistory } from '../suites/concurrent/checker.js';
import { planWorkload } from '../suites/concurrent/plan.js';

const [DEVICE = 'rxe0', SEEDS = '1', RESIZES = '4'] = process.argv.slice(2);
const SHAPE = { posters: 4, consumers: 4, wrs: 100_000, max_wr: 256, resizes: Number(RESIZES), arms: 8, hardirqPosters: 0, numSge: 0, consumerDepth: 16, timeoutMs: 120_000 };

export interface GuestConcurrent {
  layer: string;
  seed: number;
  runMs: number;
  checkMs: number;
  operations: number;
  violations: number;
  err: number;
}

async function measure(layer: string, session: Session, seed: number): Promise<GuestConcurrent> {
  const plan = planWorkload(SHAPE, seed);
  const started = performance.now();
  const out = await session.runConcurrent(plan);
  const ran = performance.now();
  const outcome = checkHistory({ max_wr: plan.max_wr, srq_limit: 0, capacity: 'at-least', records: out.records });
  const checked = performance.now();
  await session.close();
  for (const v of outcome.violations.slice(0, 3)) process.stderr.write(`${layer} seed ${seed}: ${v.clause} ${v.kind}: ${v.message}\n`);
  return { layer, seed, runMs: ran - started, checkMs: checked - ran, operations: outcome.operations, violations: outcome.counts.reduce((n, c) => n + c.count, 0), err: out.err };
}

const results: GuestConcurrent[] = [];
for (let seed = 17_100; seed < 17_100 + Number(SEEDS); seed++) {
  results.push(await measure('libibverbs', openNativeSession(loadBinding(), DEVICE), seed));
  results.push(await measure('kernel', openKernelSession(openControl(DEVICE)), seed));
}
process.stdout.write(`${JSON.stringify(results)}\n`);
