import type { ConcurrentPlan } from '../../../../adapters/concurrent.js';

/** The numbers of a C array initializer `static const TYPE name[] = { ... };` in a reproducer's source. */
function arrayOf(source: string, name: string): number[] {
  const match = new RegExp(`static const [a-z0-9 ]+ ${name}\\[\\] = \\{([^}]*)\\};`).exec(source);
  if (match === null) throw new Error(`no array ${name} in the source`);
  return (match[1] ?? '').split(',').map((n) => n.trim()).filter((n) => n !== '').map(Number);
}

const macro = (source: string, name: string): number => {
  const match = new RegExp(`^#define ${name} (\\d+)$`, 'm').exec(source);
  if (match === null) throw new Error(`no #define ${name} in the source`);
  return Number(match[1]);
};

/** The plan a reproducer embeds, read back from its C as a reader's compiler would see it. */
export function embeddedPlan(source: string): ConcurrentPlan {
  const firstIds = [...source.matchAll(/^\t\{ (\d+)ULL, poster_(\d+)_batches, ARRAY_SIZE\(poster_\2_batches\) \},$/gm)].map((m) => Number(m[1]));
  return {
    max_wr: macro(source, 'PLAN_MAX_WR'),
    srq_limit: macro(source, 'PLAN_SRQ_LIMIT'),
    posters: firstIds.map((first_wr_id, i) => ({ first_wr_id, batches: arrayOf(source, `poster_${i}_batches`) })),
    num_sge: macro(source, 'PLAN_NUM_SGE'),
    consumers: arrayOf(source, 'plan_messages').map((messages) => ({ messages })),
    consumer_depth: macro(source, 'PLAN_CONSUMER_DEPTH'),
    resizes: arrayOf(source, 'plan_resizes').map((max_wr) => ({ max_wr })),
    arms: arrayOf(source, 'plan_arms').map((srq_limit) => ({ srq_limit })),
    hardirq_posters: macro(source, 'PLAN_HARDIRQ_POSTERS'),
    timeout_ms: macro(source, 'PLAN_TIMEOUT_MS'),
  };
}
