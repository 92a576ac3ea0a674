import type { CaseResult, RunResults } from '../../results-schema.js';
import { cComment, cString, indent } from '../c-syntax.js';
import { deviceOf, recordedHeader } from '../case.js';
import { literalText, prFormat, prInfo } from '../kernel/c-kernel.js';
import { clauseLines, type ModuleFiles, moduleFiles, initEnd, moduleEnd } from '../kernel/module-parts.js';
import { kernelPrelude } from '../kernel/prelude.js';
import { clauseComparisons, notComparedWhy } from './judge.js';
import { KERNEL_ENGINE } from './kernel-engine.js';
import { planData } from './plan-data.js';
import { judgeFunction, KERNEL_TALLY, tallyC } from './tally.js';
import type { RecordedWorkload } from './workload.js';

function header(results: RunResults, kase: CaseResult, from: string, workload: RecordedWorkload, device: string | undefined): string[] {
  const seed =
    workload.seed === undefined
      ? 'the recording\'s plan (the suite has no such case now, so no seed to check it against)'
      : `the plan rvt-conform draws from seed ${workload.seed} (suites/concurrent/plan.ts)${workload.planFromSeed ? '' : ': NOT the recorded one, which the suite has changed since; the recorded plan is the one below'}`;
  return [
    '// SPDX-License-Identifier: GPL-2.0',
    '/*',
    ...recordedHeader(results, kase, from),
    ' *',
    ` * Module init runs the case's concurrent workload on the ib_device named by device= (default: ${device === undefined ? 'the recorded one' : cComment(device)}):`,
    ` * ${cComment(seed)}, embedded as data.`,
    ' * Posters call ib_post_srq_recv from kthreads (the last PLAN_HARDIRQ_POSTERS from a hard-IRQ',
    ' * hrtimer), consumers drain the SRQ through loopback SENDs, a resizer and an armer call',
    ' * ib_modify_srq while the ring is busy. It waits for them until timeout_ms and wait_ms more, then',
    ' * prints what they saw and, for each clause it can judge, the recorded and the replayed verdict;',
    ' * rounds= runs it again that many times, each on a rig of its own, the verdict over them all.',
    ' *   make && insmod rvt_repro.ko [device=rvt_sim0] [rounds=N] [timeout_ms=60000] [wait_ms=1000]; dmesg | grep rvt-repro',
    ' * After a run that ended, init returns -EAGAIN (insmod reports it): the module never stays. A thread',
    ' * that never returns (stuck in the driver) leaves no verdict: init returns 0 and the module stays',
    ' * loaded, since the stuck thread still uses it; the kernel log shows where it is stuck.',
    ' */',
  ];
}

/**
 * A standalone kernel module that runs a concurrent case's workload (the recorded plan, which its
 * seed gives) with kthreads on a device and prints, once they all returned, what they saw and the
 * recorded against the replayed verdict of the clauses it can judge; no verdict when one never does.
 */
export function renderConcurrentModule(results: RunResults, kase: CaseResult, from: string, workload: RecordedWorkload, options: { device?: string; rounds?: number }): ModuleFiles {
  const comparisons = clauseComparisons(kase);
  const id = literalText(kase.id);
  const source = [
    ...header(results, kase, from, workload, options.device),
    kernelPrelude(['linux/atomic.h', 'linux/cpumask.h', 'linux/kthread.h', 'linux/sched.h', 'linux/sched/task.h']),
    `static char *device = ${cString(options.device ?? results.adapter.device.name)};`,
    'module_param(device, charp, 0444);',
    `MODULE_PARM_DESC(device, ${cString(`the ib_device to run the workload on (default: ${options.device === undefined ? 'the recorded one' : options.device})`)});`,
    '',
    `/* The plan of ${cComment(workload.seed === undefined ? 'the recording' : `seed ${workload.seed}`)}: what each thread does. */`,
    ...planData(workload.plan, { u32: 'u32', u64: 'u64' }),
    '',
    `#define DEFAULT_ROUNDS ${options.rounds ?? 1}`,
    '',
    KERNEL_ENGINE,
    tallyC(KERNEL_TALLY),
    ...judgeFunction(workload, comparisons, KERNEL_TALLY),
    '',
    'static int __init rvt_repro_init(void)',
    '{',
    ...indent([
      'unsigned int round;',
      'int ret;',
      '',
      prFormat(`${id}: the workload${workload.seed === undefined ? '' : ` of seed ${workload.seed}`} on %s, as recorded on ${literalText(deviceOf(results))}`, ['device'], 1),
      ...clauseLines(results, kase),
      ...comparisons.filter((c) => c.recorded === undefined).map((c) => prInfo(`${kase.id}: ${notComparedWhy(c)}`, 1)),
      'dev = ib_device_get_by_name(device, RDMA_DRIVER_UNKNOWN);',
      'if (!dev) {',
      `\t${prFormat(`${id}: no RDMA device named %s`, ['device'], 2)}`,
      '\treturn -ENODEV;',
      '}',
      'INIT_IB_EVENT_HANDLER(&device_events, dev, on_device_event);',
      'ib_register_event_handler(&device_events);',
      'for (round = 1; round <= rounds; round++) {',
      ...indent([
        'reset_workload();',
        'ret = build_rig();',
        'if (!ret) {',
        '\tret = start_workload();',
        '\tif (ret)',
        '\t\tabandon_workload();',
        '}',
        'if (ret) {',
        '\tdestroy_rig();',
        '\tib_unregister_event_handler(&device_events);',
        '\tib_device_put(dev);',
        `\t${prFormat(`${id}: could not set up the workload (%d)`, ['ret'], 3)}`,
        '\treturn ret;',
        '}',
        prFormat(`${id}: round %u of %u: ${workload.plan.posters.length} posters, ${workload.plan.consumers.length} consumers, %llu WRs, deadline %u ms`, ['round', 'rounds', 'total', 'timeout_ms'], 2),
        'ret = wait_workload();',
        'if (ret) {',
        `\t${prFormat(`${id}: no verdict: %d thread(s) of the workload never returned (a lockup: the kernel's own report of it is in this log); the module stays loaded, since they still use it`, ['ret'], 3)}`,
        '\treturn 0;',
        '}',
        'reap_workload();',
        'judge_workload();',
        'destroy_rig();',
      ]),
      '}',
      ...initEnd(results, kase),
    ]),
    '}',
    ...moduleEnd(kase),
  ].join('\n');
  return moduleFiles(source);
}
