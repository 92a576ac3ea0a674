import type { ConcurrentPlan } from '../../../adapters/concurrent.js';

/** The C integer types of a layer: the kernel's u32/u64, or stdint's. */
export interface IntTypes {
  u32: string;
  u64: string;
}

/** A C initializer's numbers, as many a line as fit in 100 columns after one tab. */
function numberLines(values: readonly number[]): string[] {
  const lines: string[] = [];
  let line = '';
  for (const v of values) {
    const piece = `${v},`;
    if (line !== '' && 8 + line.length + 1 + piece.length > 100) {
      lines.push(`\t${line}`);
      line = piece;
    } else line = line === '' ? piece : `${line} ${piece}`;
  }
  if (line !== '') lines.push(`\t${line}`);
  return lines;
}

const array = (type: string, name: string, values: readonly number[]): string[] =>
  values.length === 0 ? [`static const ${type} ${name}[] = {};`] : [`static const ${type} ${name}[] = {`, ...numberLines(values), '};'];

/**
 * The plan as C data, so the reproducer needs nothing but itself: the scalars as PLAN_ macros, each
 * poster's batches (WRs per post, in order), the messages each consumer receives, and the max_wr
 * and srq_limit values the resizer and the armer apply in order. ARRAY_SIZE gives the counts.
 */
export function planData(plan: ConcurrentPlan, types: IntTypes): string[] {
  return [
    `#define PLAN_MAX_WR ${plan.max_wr}`,
    `#define PLAN_SRQ_LIMIT ${plan.srq_limit}`,
    `#define PLAN_NUM_SGE ${plan.num_sge}`,
    `#define PLAN_CONSUMER_DEPTH ${plan.consumer_depth}`,
    `#define PLAN_HARDIRQ_POSTERS ${plan.hardirq_posters}`,
    `#define PLAN_TIMEOUT_MS ${plan.timeout_ms}`,
    `#define PLAN_POSTERS ${plan.posters.length}`,
    `#define PLAN_CONSUMERS ${plan.consumers.length}`,
    '',
    ...plan.posters.flatMap((p, i) => [...array(types.u32, `poster_${i}_batches`, p.batches), '']),
    'struct plan_poster {',
    `\t${types.u64} first_wr_id;`,
    `\tconst ${types.u32} *batches;`,
    `\t${types.u32} n_batches;`,
    '};',
    '',
    'static const struct plan_poster plan_posters[PLAN_POSTERS] = {',
    ...plan.posters.map((p, i) => `\t{ ${p.first_wr_id}ULL, poster_${i}_batches, ARRAY_SIZE(poster_${i}_batches) },`),
    '};',
    '',
    ...array(types.u32, 'plan_messages', plan.consumers.map((c) => c.messages)),
    ...array(types.u32, 'plan_resizes', plan.resizes.map((r) => r.max_wr)),
    ...array(types.u32, 'plan_arms', plan.arms.map((a) => a.srq_limit)),
  ];
}
