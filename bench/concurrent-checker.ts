import { RECORD_WIDTH, RecordKind } from '../adapters/concurrent.js';
import { checkHistoryAfresh } from '../suites/concurrent/checker.js';
import type { ConcurrentHistory } from '../suites/concurrent/history.js';
import { emit, type Figure, time } from './measure.js';

/**
 * The concurrent-history checker (issue 17: 1 M operations in seconds, no worse than n log n):
 * decode + check of correct synthetic histories of 10 k, 100 k and 1 M operations, median of a
 * few runs after a warm-up, with the time per operation to show the growth is about linear.
 */

const MAX_WR = 256;
const POSTERS = 4;
const CONSUMERS = 4;
const ENOMEM = 12;
const EINVAL = 22;

/** A small deterministic PRNG (mulberry32), so every run checks the same histories. */
function prng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/**
 * A correct history of about `operations` operations, shaped like the engines' runs: 4 posters
 * posting batches of 1..16 (the part refused with ENOMEM posted again), 4 consumers whose
 * receives span from their SEND (posted well before) to the poll (a while after), a resizer
 * between 128 and 512, an armer (srq_limit 16..64) and the events it earns, read a little later.
 * Each operation takes effect at one instant of a sequential run of the bounded FIFO and its
 * interval is widened around that instant, so the history is linearizable by construction.
 */
function syntheticHistory(operations: number, seed: number): ConcurrentHistory {
  const rand = prng(seed);
  const out = new Float64Array(operations * RECORD_WIDTH);
  let n = 0;
  const record = (actor: number, kind: number, invoke: number, response: number, a = 0, b = 0, c = 0, d = 0) => {
    out.set([actor, kind, invoke, response, a, b, c, d], n++ * RECORD_WIDTH);
  };
  const queue = new Float64Array(1024); // a ring of wr_ids, never more than 512 held
  let head = 0;
  let count = 0;
  let max_wr = MAX_WR;
  let limit = 0;
  let nextId = 1;
  const leftover = new Array<number>(POSTERS).fill(0);
  let t = 10_000; // past the widest widening, so no time is negative
  while (n < operations) {
    t += 20 + rand(80);
    // The last record is a post: a receive there could owe an event record with no room left.
    const roll = n === operations - 1 ? 100 : rand(1000);
    if (roll < 3) {
      const want = 128 + rand(385);
      const ok = want >= count && want >= limit;
      if (ok) max_wr = want;
      record(POSTERS + CONSUMERS, RecordKind.RESIZE, t - rand(2000), t + rand(2000), want, ok ? 0 : EINVAL);
    } else if (roll < 6) {
      limit = 16 + rand(49);
      record(POSTERS + CONSUMERS + 1, RecordKind.ARM, t - rand(500), t + rand(500), limit);
    } else if (roll < 500 || count === 0) {
      const p = rand(POSTERS);
      const wanted = leftover[p] || 1 + rand(16);
      const accepted = Math.min(wanted, max_wr - count);
      for (let i = 0; i < accepted; i++) queue[(head + count++) % queue.length] = nextId + i;
      record(p, RecordKind.POST, t - rand(300), t + rand(300), nextId, wanted, accepted < wanted ? ENOMEM : 0, accepted);
      nextId += accepted;
      leftover[p] = wanted - accepted;
    } else {
      const c = rand(CONSUMERS);
      const wr = queue[head] as number;
      head = (head + 1) % queue.length;
      count--;
      // The SEND that consumed it was posted up to ~16 SENDs earlier; the poll comes a little after.
      record(POSTERS + c, RecordKind.RECV, t - rand(3000), t + 50 + rand(3000), wr, 0, c);
      if (limit > 0 && count < limit) {
        limit = 0;
        const read = t + 500 + rand(5000);
        record(POSTERS + CONSUMERS + 2, RecordKind.LIMIT_EVENT, read, read);
      }
    }
  }
  return { max_wr: MAX_WR, srq_limit: 0, capacity: 'exact', records: out.subarray(0, n * RECORD_WIDTH) };
}

async function main(): Promise<void> {
  // Warm-up: long enough for V8 to have optimised the checker's loops (a few runs are not).
  const warm = syntheticHistory(10_000, 1);
  for (let i = 0; i < 50; i++) checkHistoryAfresh(warm);
  const figures: Figure[] = [];
  const command = 'node dist/bench/concurrent-checker.js';
  const rows: string[] = [];
  for (const [size, runs] of [
    [10_000, 31],
    [100_000, 11],
    [1_000_000, 5],
  ] as const) {
    // Built just before it is checked, so one size's garbage does not land in another's timing.
    const h = syntheticHistory(size, size);
    const outcome = checkHistoryAfresh(h);
    if (!outcome.linearizable) throw new Error(`the synthetic history of ${size} operations is not linearizable: ${JSON.stringify(outcome.violations[0])}`);
    const t = await time(async () => checkHistoryAfresh(h), runs);
    const perSecond = Math.round(size / (t.medianMs / 1000));
    rows.push(`${String(size).padStart(9)} ops  ${t.medianMs.toFixed(1).padStart(8)} ms  ${String(perSecond).padStart(10)} ops/s  ${((t.medianMs * 1e6) / size).toFixed(0).padStart(5)} ns/op`);
    const name = `concurrent checker, decode + check of ${size >= 1e6 ? `${size / 1e6} M` : `${size / 1e3} k`} operations (median of ${runs})`;
    const target = size === 1_000_000 ? { text: '<= 5000 ms for 1 M operations (issue 17: "in seconds")', met: t.medianMs <= 5000 } : undefined;
    figures.push({ name, value: t.medianMs, unit: 'ms', ...(target ? { target } : {}), command });
    figures.push({ name: `${name}, rate`, value: perSecond, unit: 'ops/s', command });
  }
  // The human-readable table on stderr: stdout's last line is the JSON bench/run.ts reads.
  process.stderr.write(`${rows.join('\n')}\n`);
  emit('concurrent-checker', figures);
}

await main();
