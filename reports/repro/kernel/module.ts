import type { CallName } from '../../../adapters/calls.js';
import type { CaseResult, RunResults } from '../../results-schema.js';
import { cComment, cString, indent } from '../c-syntax.js';
import { caseToReplay, deviceOf, recordedHeader, SPLAT_CHECK } from '../case.js';
import type { Emitter } from '../expect.js';
import { type AnyRecorded, recordedCalls, steps } from '../recorded.js';
import { aliveInTeardownOrder, Scope } from '../scope.js';
import { KERNEL_VERBS, literalText, prFormat, prInfo } from './c-kernel.js';
import { KERNEL_EMITTERS } from './emit.js';
import { KERNEL_PRELUDE } from './prelude.js';
import { renderConcurrentModule } from '../concurrent/kernel.js';
import { recordedWorkload } from '../concurrent/workload.js';
import { clauseLines, MODULE_NAME, type ModuleFiles, moduleFiles, initEnd, moduleEnd } from './module-parts.js';

export { MODULE_NAME, type ModuleFiles } from './module-parts.js';

/**
 * A splat is not a return value: the module compares the kernel's WARN taint before and after the
 * replay (a BUG or oops ends the insmod itself, and the log shows it).
 */
function splatCheck(kase: CaseResult): string[] {
  const splat = kase.checks.find((k) => SPLAT_CHECK.test(k.what));
  if (splat === undefined) return [];
  const recorded = splat.status === 'fail' ? 'a splat' : 'no splat';
  return [
    '/* The recording watched the kernel log for a splat: a WARNING taints the kernel, so the taint tells. */',
    'if (tainted_before)',
    `\t${prInfo('the kernel was tainted W before the replay: whether the replay WARNed, only the kernel log above says', 2)}`,
    'else',
    `\tcheck_str(0, "kernel log", "splat", ${cString(recorded)}, test_taint(TAINT_WARN) ? "a splat" : "no splat");`,
  ];
}

/** A step whose recorded call threw (the implementation crashed, say) says so in its announcement (stepTitle). */
const emitStep = (group: readonly AnyRecorded[], scope: Scope): string[] => {
  const call = group[0];
  return call === undefined ? [] : (KERNEL_EMITTERS[call.call] as Emitter<CallName>)(group, scope);
};

/** The locals the replay's statements use, and only those (an unused local is a warning in a kernel build). */
function locals(body: readonly string[]): string[] {
  const text = body.join('\n');
  return [
    ...(/\bbad_send\b/.test(text) ? ['const struct ib_send_wr *bad_send;'] : []),
    ...(/\bbad_recv\b/.test(text) ? ['const struct ib_recv_wr *bad_recv;'] : []),
    ...(/\bflags\)/.test(text) ? ['unsigned long flags;'] : []),
    ...(/\bret = /.test(text) ? ['int ret;'] : []),
    ...(/\bn = /.test(text) ? ['int n;'] : []),
  ];
}

/** The end of the replay; its label only where a step jumps to it (an unused label is a warning). */
function teardown(scope: Scope, body: readonly string[]): string[] {
  return [
    ...(body.some((line) => line.includes('goto out;')) ? ['out:'] : []),
    '/* The harness closed the session here: release what is still alive (not compared). */',
    ...aliveInTeardownOrder(scope).map((r) => `if (${r.name})\n\t${scope.dialect.teardown[r.kind](r.name)}`),
    ...scope.buffers.map((b) => `kvfree(${b});`),
  ];
}

function header(results: RunResults, kase: CaseResult, from: string, device: string | undefined): string[] {
  return [
    '// SPDX-License-Identifier: GPL-2.0',
    '/*',
    ...recordedHeader(results, kase, from),
    ' *',
    ' * Module init replays the recorded kernel verbs calls, in order, on the ib_device named by',
    ` * device= (default: ${device === undefined ? 'the recorded one' : cComment(device)}), and prints with pr_info the recorded and the`,
    ' * replayed value of each result and, last, whether the recorded behaviour reproduced. Build and run:',
    ' *   make && insmod rvt_repro.ko [device=rxe0] [wait_ms=1000]; dmesg | grep rvt-repro',
    ' * It never stays loaded: init returns -EAGAIN after its run (insmod reports that error).',
    ' * Handles, addresses, keys, QP numbers, LIDs and GIDs are its own, mapped from the recorded ones.',
    ' */',
  ];
}

/**
 * A standalone kernel module that replays a kernel-layer case's recorded verbs calls on a device
 * and prints, for each broken clause, what its source says, then the recorded and replayed results;
 * for a concurrent case, one that runs its workload (concurrent/kernel.ts).
 */
export function renderKernelRepro(results: RunResults, caseId: string, from: string, options: { device?: string; rounds?: number } = {}): ModuleFiles {
  const kase = caseToReplay(results, caseId, from);
  const workload = recordedWorkload(kase, options.rounds);
  if (workload !== undefined) return renderConcurrentModule(results, kase, from, workload, options);
  const scope = new Scope(KERNEL_VERBS);
  const body = steps(recordedCalls(kase)).flatMap((group) => [...emitStep(group, scope), '']);
  const splat = splatCheck(kase);
  const replay = [
    ...locals(body),
    ...(splat.length > 0 ? ['bool tainted_before = test_taint(TAINT_WARN);'] : []),
    '',
    ...body,
    ...splat,
    ...teardown(scope, body),
  ];
  const source = [
    ...header(results, kase, from, options.device),
    KERNEL_PRELUDE,
    `static char *device = ${cString(options.device ?? results.adapter.device.name)};`,
    'module_param(device, charp, 0444);',
    `MODULE_PARM_DESC(device, ${cString(`the ib_device to replay on (default: ${options.device === undefined ? 'the recorded one' : options.device})`)});`,
    '',
    ...scope.statics,
    '',
    '/* The recorded calls, in order. */',
    'static void replay_recording(void)',
    '{',
    // A label starts its line (kernel style).
    ...indent(replay).map((line) => (line === '\tout:' ? 'out:' : line)),
    '}',
    '',
    'static int __init rvt_repro_init(void)',
    '{',
    ...indent([
      prFormat(`${literalText(kase.id)}: replaying on %s, as recorded on ${literalText(deviceOf(results))}`, ['device'], 1),
      ...clauseLines(results, kase),
      'dev = ib_device_get_by_name(device, RDMA_DRIVER_UNKNOWN);',
      'if (!dev) {',
      `\t${prFormat(`${literalText(kase.id)}: no RDMA device named %s`, ['device'], 2)}`,
      '\treturn -ENODEV;',
      '}',
      'INIT_IB_EVENT_HANDLER(&device_events, dev, on_device_event);',
      'ib_register_event_handler(&device_events);',
      'replay_recording();',
      ...initEnd(results, kase),
    ]),
    '}',
    ...moduleEnd(kase),
  ].join('\n');
  return moduleFiles(source);
}
