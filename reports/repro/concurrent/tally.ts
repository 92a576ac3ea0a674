import { cString, indent } from '../c-syntax.js';
import type { ClauseComparison } from './judge.js';
import type { RecordedWorkload } from './workload.js';

/**
 * The checks both concurrent reproducers make once every thread returned, written once for the
 * kernel module and the libibverbs program: what differs is the C each layer has for a type, an
 * allocation, a print and an atomic read. Both engines name their state alike (posters[],
 * consumers[], resizer, armer, total, run_error, limit_events) so that this code reads both.
 */
export interface TallyDialect {
  u8: string;
  u32: string;
  u64: string;
  u8Max: string;
  u64Max: string;
  zalloc: (bytes: string) => string;
  free: (pointer: string) => string;
  /** A printf-like call: pr_info or printf. */
  print: string;
  limitEvents: string;
}

export const KERNEL_TALLY: TallyDialect = {
  u8: 'u8',
  u32: 'u32',
  u64: 'u64',
  u8Max: 'U8_MAX',
  u64Max: 'U64_MAX',
  zalloc: (bytes) => `kvzalloc(${bytes}, GFP_KERNEL)`,
  free: (pointer) => `kvfree(${pointer})`,
  print: 'pr_info',
  limitEvents: '(u32)atomic_read(&limit_events)',
};

export const PROGRAM_TALLY: TallyDialect = {
  u8: 'unsigned char',
  u32: 'unsigned int',
  u64: 'unsigned long long',
  u8Max: 'UCHAR_MAX',
  u64Max: 'ULLONG_MAX',
  zalloc: (bytes) => `calloc(${bytes}, 1)`,
  free: (pointer) => `free(${pointer})`,
  print: 'printf',
  limitEvents: '(unsigned int)atomic_load(&limit_events)',
};

/** The tally: the WRs the SRQ took, received once, more than once or never, and in each poster's order. */
export const tallyC = (d: TallyDialect): string => `/* What the threads saw, counted once they all returned. */
struct tally {
	${d.u64} accepted;
	${d.u64} received;
	${d.u64} lost;
	${d.u64} twice;
	${d.u64} foreign;
	${d.u64} bad_status;
	${d.u64} out_of_order;
	${d.u64} posts;
	${d.u64} refused;
	${d.u64} failed;
	${d.u32} arms_ok;
	${d.u32} resizes_ok;
};

/* Which poster posted wr_id, and its WR's index in that poster's; -1 for none. */
static int poster_of(${d.u64} wr_id, ${d.u64} *offset)
{
	int i;

	for (i = 0; i < PLAN_POSTERS; i++) {
		if (wr_id >= posters[i].plan->first_wr_id &&
		    wr_id - posters[i].plan->first_wr_id < posters[i].accepted) {
			*offset = wr_id - posters[i].plan->first_wr_id;
			return i;
		}
	}
	return -1;
}

/*
 * Every WR the SRQ took received once (exactly-once), and each consumer took a
 * poster's WRs in the order that poster posted them (a part of FIFO: one
 * consumer's receives are taken one after the other).
 */
static int count_receives(struct tally *t)
{
	${d.u64} last[PLAN_POSTERS], base[PLAN_POSTERS], offset, k;
	${d.u8} *seen;
	${d.u32} r;
	int i, p;

	for (i = 0; i < PLAN_POSTERS; i++) {
		base[i] = t->accepted;
		t->accepted += posters[i].accepted;
		t->posts += posters[i].posts;
		t->refused += posters[i].refused;
		t->failed += posters[i].failed;
	}
	seen = ${d.zalloc('t->accepted + 1')};
	if (!seen)
		return -1;
	for (i = 0; i < PLAN_CONSUMERS; i++) {
		const struct consumer *c = &consumers[i];

		memset(last, 0xff, sizeof(last));
		t->bad_status += c->bad_status;
		t->received += c->received;
		for (r = 0; r < c->received; r++) {
			p = poster_of(c->got[r], &offset);
			if (p < 0) {
				t->foreign++;
				continue;
			}
			if (seen[base[p] + offset] < ${d.u8Max})
				seen[base[p] + offset]++;
			if (last[p] != ${d.u64Max} && offset <= last[p])
				t->out_of_order++;
			last[p] = offset;
		}
	}
	for (k = 0; k < t->accepted; k++) {
		t->lost += !seen[k];
		t->twice += seen[k] > 1;
	}
	${d.free('seen')};
	for (r = 0; r < resizer.applied; r++)
		t->resizes_ok += !resizer.rets[r];
	for (r = 0; r < armer.applied; r++)
		t->arms_ok += !armer.rets[r];
	return 0;
}

static void print_tally(const struct tally *t)
{
	${d.print}("posters: the SRQ took %llu WRs of %llu planned in %llu posts\\n",
		t->accepted, total, t->posts);
	${d.print}("posters: %llu posts refused with ENOMEM (full), %llu failed otherwise\\n",
		t->refused, t->failed);
	${d.print}("consumers: %llu receives, %llu with an error status\\n", t->received, t->bad_status);
	${d.print}("WRs the SRQ took and no consumer received: %llu; received twice or more: %llu\\n",
		t->lost, t->twice);
	${d.print}("receives of a wr_id no poster posted: %llu; out of their poster's order: %llu\\n",
		t->foreign, t->out_of_order);
	${d.print}("resizes: %u of %u made, %u returned 0\\n", resizer.applied, resizer.n_values,
		t->resizes_ok);
	${d.print}("arms: %u of %u made, %u returned 0; limit events: %u\\n", armer.applied,
		armer.n_values, t->arms_ok, ${d.limitEvents});
	if (run_error)
		${d.print}("the workload stopped early (%d): %s\\n", run_error, run_stage);
}
`;

/** What each judgement finds broken, from the tally. */
const replayVerdict = (judgement: NonNullable<ClauseComparison['judgement']>, d: TallyDialect): string =>
  ({
    // A WR taken and not yet received when the workload stopped early may still be in the SRQ.
    'exactly-once': 't.twice || t.foreign || t.bad_status ? "broken" :\n\t  !t.lost ? "held" : run_error ? "undecided" : "broken"',
    fifo: 't.out_of_order ? "broken" : "held"',
    'once-per-arm': `${d.limitEvents} > t.arms_ok ? "broken" : "held"`,
  })[judgement];

/** The checks once every thread returned: the tally, then the recorded ending and each clause it can judge, recorded against replayed. */
export function judgeFunction(workload: RecordedWorkload, comparisons: readonly ClauseComparison[], d: TallyDialect): string[] {
  const check = (what: string, recorded: string, replay: string) => [`check_str(${workload.seq}, "runConcurrent", ${cString(what)}, ${cString(recorded)},`, `\t  ${replay});`];
  return [
    '/* What the threads saw, recorded against replayed. */',
    'static void judge_workload(void)',
    '{',
    ...indent([
      'struct tally t = {};',
      '',
      'if (count_receives(&t)) {',
      `\t${d.print}("no memory to count the receives\\n");`,
      '\tdifferences++;',
      '\treturn;',
      '}',
      'print_tally(&t);',
      ...check('the workload', workload.finished ? 'finished' : 'stopped', 'run_error ? "stopped" : "finished"'),
      ...comparisons.flatMap((c) => (c.recorded === undefined || c.judgement === undefined ? [] : check(c.judgement, c.recorded, replayVerdict(c.judgement, d)))),
    ]),
    '}',
  ];
}
