import fc from 'fast-check';
import { ConcurrentPlan, MAX_BATCH } from '../../adapters/concurrent.js';

/** The size of a workload; what each actor does within it is drawn from the seed. */
export interface WorkloadShape {
  posters: number;
  consumers: number;
  /** WRs posted in all; the consumers receive every one of them, so the run drains the SRQ. */
  wrs: number;
  max_wr: number;
  resizes: number;
  arms: number;
  /** Posters that post from hard-IRQ context (the kernel adapter only). */
  hardirqPosters: number;
  /** Zero-length SGEs per posted WR: a longer post, so more of it runs between reading the head and publishing it. */
  numSge: number;
  /** Bytes each SEND carries into the last SGE of the WR it lands in (a buffer per WR); 0: zero-length SENDs. */
  payload?: number;
  /** SENDs each consumer keeps in flight: 1 makes each receive's interval one delivery long. */
  consumerDepth: number;
  timeoutMs: number;
}

/** wr_id ranges of the posters stay apart: poster i posts from (i + 1) * WR_ID_STRIDE up. */
const WR_ID_STRIDE = 1_000_000_000;
/** rdmavt's RVT_RWQ_COUNT_THRESHOLD (qp.c): rvt_get_rwqe recounts the SRQ's WQEs below it. */
const RECOUNT_THRESHOLD = 16;
/** Posts of a few WRs each meet other posts in the ring often; larger ones fill it in bursts. */
const LARGEST_BATCH = Math.min(16, MAX_BATCH);

/** `total` split into `parts` nearly equal shares (the first ones one larger). */
function shares(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));
}

/** Batch sizes of 1..LARGEST_BATCH that add up to `wrs`, drawn from `draws` (one per batch, reused cyclically). */
function batchesOf(wrs: number, draws: readonly number[]): number[] {
  const batches: number[] = [];
  for (let left = wrs, i = 0; left > 0; i++) {
    const size = Math.min(left, draws[i % draws.length] ?? 1);
    batches.push(size);
    left -= size;
  }
  return batches;
}

function planArbitrary(shape: WorkloadShape): fc.Arbitrary<ConcurrentPlan> {
  const batchDraws = fc.array(fc.integer({ min: 1, max: LARGEST_BATCH }), { minLength: 64, maxLength: 64 });
  // Resizes both grow and shrink the ring; one below the WQEs queued or the limit is refused (EINVAL), as it must be.
  const resize = fc.integer({ min: Math.max(1, Math.floor(shape.max_wr / 2)), max: shape.max_wr * 2 });
  // Limits up to max_wr / 4, and above rvt_get_rwqe's recount threshold where the ring allows:
  // below it rdmavt has just recounted, so a count cached since the last recount cannot show.
  const most = Math.max(1, Math.floor(shape.max_wr / 4));
  const arm = fc.integer({ min: most > RECOUNT_THRESHOLD ? RECOUNT_THRESHOLD + 1 : 1, max: most });
  return fc
    .record({
      draws: fc.array(batchDraws, { minLength: shape.posters, maxLength: shape.posters }),
      resizes: fc.array(resize, { minLength: shape.resizes, maxLength: shape.resizes }),
      arms: fc.array(arm, { minLength: shape.arms, maxLength: shape.arms }),
    })
    .map(({ draws, resizes, arms }) => ({
      max_wr: shape.max_wr,
      srq_limit: 0,
      posters: shares(shape.wrs, shape.posters).map((wrs, i) => ({ first_wr_id: (i + 1) * WR_ID_STRIDE, batches: batchesOf(wrs, draws[i] ?? []) })),
      num_sge: shape.numSge,
      ...((shape.payload ?? 0) > 0 ? { payload: shape.payload } : {}),
      consumers: shares(shape.wrs, shape.consumers).map((messages) => ({ messages })),
      consumer_depth: shape.consumerDepth,
      resizes: resizes.map((max_wr) => ({ max_wr })),
      arms: arms.map((srq_limit) => ({ srq_limit })),
      hardirq_posters: shape.hardirqPosters,
      timeout_ms: shape.timeoutMs,
    }));
}

/** The workload of `shape` for `seed`: the same seed always gives the same plan. */
export function planWorkload(shape: WorkloadShape, seed: number): ConcurrentPlan {
  const [plan] = fc.sample(planArbitrary(shape), { seed, numRuns: 1 });
  if (plan === undefined) throw new Error('fast-check drew no plan');
  return ConcurrentPlan.parse(plan);
}
