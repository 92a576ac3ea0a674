import type { CaseResult, RunResults } from '../../results-schema.js';
import { cComment, cString, indent } from '../c-syntax.js';
import { deviceOf, recordedHeader } from '../case.js';
import { PRELUDE } from '../prelude.js';
import { clauseComparisons, notComparedWhy } from './judge.js';
import { planData } from './plan-data.js';
import { PROGRAM_ENGINE } from './program-engine.js';
import { judgeFunction, PROGRAM_TALLY, tallyC } from './tally.js';
import type { RecordedWorkload } from './workload.js';

/** How the program ends: as the call-by-call program does (0, 1, 2), and 3 when a thread never returned. */
export const CONCURRENT_EXIT = { reproduced: 0, different: 1, noDevice: 2, stuck: 3 } as const;

function header(results: RunResults, kase: CaseResult, from: string, workload: RecordedWorkload): string[] {
  const seed =
    workload.seed === undefined
      ? "the recording's plan (the suite has no such case now, so no seed to check it against)"
      : `the plan rvt-conform draws from seed ${workload.seed} (suites/concurrent/plan.ts)${workload.planFromSeed ? '' : ': NOT the recorded one, which the suite has changed since; the recorded plan is the one below'}`;
  return [
    '/*',
    ...recordedHeader(results, kase, from),
    ' *',
    " * It runs the case's concurrent workload through libibverbs with pthreads:",
    ` * ${cComment(seed)}, embedded as data.`,
    ' * Posters call ibv_post_srq_recv, consumers drain the SRQ through loopback SENDs, a resizer and an',
    ' * armer call ibv_modify_srq while the ring is busy. It waits for them until the plan\'s timeout',
    ' * (REPRO_TIMEOUT_MS) and REPRO_WAIT_MS more, then prints what they saw and, for each clause it can',
    ' * judge, the recorded and the replayed verdict (REPRO_ROUNDS runs it that many times, each on a rig',
    ' * of its own, the verdict over them all): exit 0 when all are the same, 1 on a difference,',
    ` * 2 when it cannot open the device or build the rig, ${CONCURRENT_EXIT.stuck} when a thread never returned (no verdict: a`,
    ' * thread stuck in the kernel may keep the process from exiting; the kernel log shows where).',
    ' *   cc -std=gnu11 -Wall -o repro repro.c -libverbs -lpthread && ./repro [device-name]',
    ' */',
  ];
}

/**
 * A standalone C program that runs a concurrent case's workload (the recorded plan, which its seed
 * gives) through libibverbs with pthreads and prints what its threads saw and the recorded against
 * the replayed verdict of the clauses it can judge; no verdict when a thread never returns.
 */
export function renderConcurrentProgram(results: RunResults, kase: CaseResult, from: string, workload: RecordedWorkload, options: { rounds?: number } = {}): string {
  const comparisons = clauseComparisons(kase);
  const verdict = comparisons.some((c) => c.recorded === 'broken') ? 'which broke a clause it checks' : 'which met every clause it checks';
  return [
    ...header(results, kase, from, workload),
    PRELUDE,
    '#include <limits.h>',
    '#include <pthread.h>',
    '#include <sched.h>',
    '#include <stdatomic.h>',
    '#include <unistd.h>',
    '',
    '#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))',
    '',
    `/* The plan of ${cComment(workload.seed === undefined ? 'the recording' : `seed ${workload.seed}`)}: what each thread does. */`,
    ...planData(workload.plan, { u32: 'unsigned int', u64: 'unsigned long long' }),
    '',
    `#define DEFAULT_ROUNDS ${options.rounds ?? 1}`,
    '',
    PROGRAM_ENGINE,
    tallyC(PROGRAM_TALLY),
    ...judgeFunction(workload, comparisons, PROGRAM_TALLY),
    '',
    'int main(int argc, char **argv)',
    '{',
    ...indent([
      '/* One line at a time, so a thread stuck in the kernel still leaves every line before it. */',
      'setvbuf(stdout, NULL, _IOLBF, 0);',
      'ctx = open_device(argc > 1 ? argv[1] : NULL);',
      `puts(${cString(`${kase.id}: the workload${workload.seed === undefined ? '' : ` of seed ${workload.seed}`}, as recorded on ${deviceOf(results)}`)});`,
      ...comparisons.filter((c) => c.recorded === undefined).map((c) => `puts(${cString(`note: ${notComparedWhy(c)}`)});`),
      'for (long round = 1; round <= rounds(); round++) {',
      ...indent([
        'reset_workload();',
        'if (build_rig() || start_workload()) {',
        '\tdestroy_rig();',
        `\treturn ${CONCURRENT_EXIT.noDevice};`,
        '}',
        `printf(${cString(`round %ld of %ld: ${workload.plan.posters.length} posters, ${workload.plan.consumers.length} consumers, %llu WRs, deadline %ld ms\n`)}, round, rounds(), total, timeout_ms());`,
        'if (wait_workload()) {',
        `\tputs(${cString(`${kase.id}: no verdict: a thread of the workload never returned (a lockup: the kernel log says where)`)});`,
        `\t_exit(${CONCURRENT_EXIT.stuck});`,
        '}',
        'reap_workload();',
        'judge_workload();',
        'destroy_rig();',
      ]),
      '}',
      'ibv_close_device(ctx);',
      'if (differences)',
      `\tprintf("%d difference(s) from the recording: the recorded behaviour (%s) does not reproduce as it was\\n", differences, ${cString(verdict)});`,
      'else',
      `\tputs(${cString(`0 differences from the recording: it reproduces here, ${verdict}`)});`,
      `return differences ? ${CONCURRENT_EXIT.different} : ${CONCURRENT_EXIT.reproduced};`,
    ]),
    '}',
    '',
  ].join('\n');
}
