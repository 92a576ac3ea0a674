import type { CallName } from '../../adapters/calls.js';
import type { CaseResult, RunResults } from '../results-schema.js';
import { cComment, cString, indent } from './c-syntax.js';
import { caseToReplay, clauseCounts, deviceOf, recordedHeader, verdictLines } from './case.js';
import { postEmitters } from './emit-posts.js';
import { resourceEmitters } from './emit-resources.js';
import type { Emitter } from './expect.js';
import { PRELUDE } from './prelude.js';
import { renderConcurrentProgram } from './concurrent/program.js';
import { recordedWorkload, runConcurrentStep } from './concurrent/workload.js';
import { type AnyRecorded, recordedCalls, steps } from './recorded.js';
import { aliveInTeardownOrder, Scope } from './scope.js';

/** One emitter per verbs call: a call added to adapters/calls.ts without one is a compile error here. */
const EMITTERS: { [N in CallName]: Emitter<N> } = { ...resourceEmitters, ...postEmitters, runConcurrent: runConcurrentStep };

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

/** What the program prints first: what it replays, what the clauses expect, and how it compares. */
function notes(results: RunResults, kase: CaseResult): string[] {
  const layer = results.adapter.layer;
  return [
    `replaying ${kase.id} as recorded on ${deviceOf(results)}, where it ended ${kase.status}`,
    ...verdictLines(kase),
    'each line below compares a result of the replay with the recording (not with the clause): "same" everywhere means the recorded behaviour, pass or fail, reproduces here',
    layer === 'kernel'
      ? 'the recording is of the kernel layer (negative errno); libibverbs returns a positive errno: return values are compared by errno name, sign ignored'
      : 'return values are compared by errno name, sign ignored (the errno-sign clauses check the sign)',
    'handles, addresses, keys, QP numbers, LIDs and GIDs are this program\'s own, mapped from the recorded ones',
  ];
}

/** The last line: how the replay relates to the recording, and so to the clauses. */
function conclusion(kase: CaseResult): string[] {
  const { broken } = clauseCounts(kase);
  const verdict = broken.length === 0 ? 'which met every clause it checks' : `which broke ${broken.join(', ')}`;
  return [
    'if (differences)',
    `\tprintf("%d difference(s) from the recording: the recorded behaviour (%s) does not reproduce as it was\\n", differences, ${cString(verdict)});`,
    'else',
    `\tputs(${cString(`0 differences from the recording: it reproduces here, ${verdict}`)});`,
  ];
}

function teardown(scope: Scope): string[] {
  return [
    '/* The harness closed the session here: release what is still alive (not compared). */',
    ...aliveInTeardownOrder(scope).map((r) => `if (${r.name})\n\t${scope.dialect.teardown[r.kind](r.name)}`),
  ];
}

/**
 * A standalone C program against libibverbs that replays a case's recorded calls on this machine's
 * device and prints the recorded and the replayed value of every result; it exits 1 on a difference,
 * 2 when it cannot open a device. For a concurrent case, one that runs its workload (concurrent/program.ts).
 */
export function renderRepro(results: RunResults, caseId: string, from: string, options: { rounds?: number } = {}): string {
  const kase = caseToReplay(results, caseId, from);
  const workload = recordedWorkload(kase, options.rounds);
  if (workload !== undefined) return renderConcurrentProgram(results, kase, from, workload, options);
  const scope = new Scope();
  const body = steps(recordedCalls(kase)).flatMap((group) => [...emitStep(group, scope), '']);
  return [
    '/*',
    ...recordedHeader(results, kase, from),
    ' *',
    ' * It replays the recorded verbs calls through libibverbs and prints the recorded and the replayed',
    ' * value of each result: exit 0 when all are the same (the recorded behaviour reproduces, a failure',
    ' * included), 1 on a difference, 2 when no device can be opened. What the clauses expect is above.',
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
      ...conclusion(kase),
      'return differences ? 1 : 0;',
    ]),
    '}',
    '',
  ].join('\n');
}
