import type { CallName } from '../../adapters/calls.js';
import { UserError } from '../../cli/errors.js';
import type { CaseResult, RunResults } from '../results-schema.js';
import { cComment, cString, indent } from './c-syntax.js';
import { postEmitters } from './emit-posts.js';
import { resourceEmitters } from './emit-resources.js';
import type { Emitter } from './expect.js';
import { PRELUDE } from './prelude.js';
import { type AnyRecorded, recordedCalls, steps } from './recorded.js';
import { Scope, TEARDOWN } from './scope.js';

/** One emitter per verbs call: a call added to adapters/calls.ts without one is a compile error here. */
const EMITTERS: { [N in CallName]: Emitter<N> } = { ...resourceEmitters, ...postEmitters };

/**
 * A step whose recorded call threw (the implementation crashed, say) first says so: if it crashes
 * this program too, the output shows where and that this is the reproduction.
 */
function emitStep(group: readonly AnyRecorded[], scope: Scope): string[] {
  const call = group[0];
  if (call === undefined) return [];
  const threw = group.find((c) => c.error !== undefined);
  const warning = threw === undefined ? [] : [`puts(${cString(`#${threw.seq} ${threw.call}: in the recording this call threw: ${threw.error}`)});`];
  return [...warning, ...(EMITTERS[call.call] as Emitter<CallName>)(group, scope)];
}

/** What the program prints first: what it replays, and how it compares. */
function notes(results: RunResults, kase: CaseResult): string[] {
  const layer = results.adapter.layer;
  return [
    `replaying ${kase.id} as recorded on ${results.adapter.adapter} (${results.adapter.device.name}, ${layer} layer), where it ended ${kase.status}`,
    layer === 'kernel'
      ? 'the recording is of the kernel layer (negative errno); libibverbs returns a positive errno: return values are compared by errno name, sign ignored'
      : 'return values are compared by errno name, sign ignored (the errno-sign clauses check the sign)',
    'handles, addresses, keys, QP numbers, LIDs and GIDs are this program\'s own, mapped from the recorded ones',
  ];
}

function teardown(scope: Scope): string[] {
  const order = Object.keys(TEARDOWN) as (keyof typeof TEARDOWN)[];
  const alive = order.flatMap((kind) => scope.alive.filter((r) => r.kind === kind).reverse());
  return [
    '/* The harness closed the session here: release what is still alive (not compared). */',
    ...alive.map((r) => `if (${r.name})\n\t${TEARDOWN[r.kind]}(${r.name});`),
  ];
}

/**
 * A standalone C program against libibverbs that replays a case's recorded calls on this machine's
 * device and prints expected vs actual for every recorded result; it exits 1 on a difference,
 * 2 when it cannot open a device.
 */
export function renderRepro(results: RunResults, caseId: string, from: string): string {
  const kase = results.cases.find((c) => c.id === caseId);
  if (kase === undefined) {
    throw new UserError(`${from} has no case '${caseId}'`, { hint: `its cases: ${results.cases.map((c) => c.id).join(', ') || 'none'}` });
  }
  if (kase.trace.length === 0) {
    throw new UserError(`case ${caseId} made no verbs calls in ${from} (${kase.status}${kase.reason ? `: ${kase.reason}` : ''}): there is nothing to replay`);
  }
  const scope = new Scope();
  const body = steps(recordedCalls(kase)).flatMap((group) => [...emitStep(group, scope), '']);
  return [
    '/*',
    ` * Reproducer written by rvt-conform ${results.tool.version} from ${cComment(from)}`,
    ` * case:     ${cComment(`${kase.id}: ${kase.title}`)}`,
    ` * recorded: ${cComment(`${results.adapter.adapter}, ${results.adapter.implementation}`)}`,
    ` *           device ${cComment(results.adapter.device.name)}, layer ${results.adapter.layer}, profile ${results.run.profile}; the case ended ${kase.status}`,
    ' *',
    ' * It replays the recorded verbs calls through libibverbs and prints expected vs actual for each',
    ' * recorded result: exit 0 when all agree, 1 on a difference, 2 when no device can be opened.',
    ' *   cc -Wall -o repro repro.c -libverbs && ./repro [device-name]     (default: the first device)',
    ' * REPRO_WAIT_MS sets how long to wait for completions and events (default 1000).',
    ' */',
    PRELUDE,
    ...scope.statics,
    '',
    'int main(int argc, char **argv)',
    '{',
    ...indent([
      '/* One line at a time, so a crash in a call still leaves every line before it. */',
      'setvbuf(stdout, NULL, _IOLBF, 0);',
      'ctx = open_device(argc > 1 ? argv[1] : NULL);',
      ...notes(results, kase).map((n) => `puts(${cString(`note: ${n}`)});`),
      '',
      ...body,
      ...teardown(scope),
      'ibv_close_device(ctx);',
      'printf("%d difference(s)\\n", differences);',
      'return differences ? 1 : 0;',
    ]),
    '}',
    '',
  ].join('\n');
}
