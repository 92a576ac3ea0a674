import { type CallArgs, type CallName, type CallResult, calls } from '../../adapters/calls.js';
import { UserError } from '../../spec/errors.js';
import { reviveBigints } from '../json-value.js';
import type { CaseResult, TraceEntry } from '../results-schema.js';

/** One recorded call, typed again: the arguments and result as the adapter saw them. */
export interface Recorded<N extends CallName> {
  seq: number;
  call: N;
  args: CallArgs<N>;
  /** Absent when the call threw (then `error` says what) or the case stopped inside it. */
  result: CallResult<N> | undefined;
  error: string | undefined;
}
export type AnyRecorded = { [N in CallName]: Recorded<N> }[CallName];

const isCallName = (name: string): name is CallName => Object.hasOwn(calls, name);

function retype(caseId: string, entry: TraceEntry): AnyRecorded {
  const where = `case ${caseId}, trace entry #${entry.seq} (${entry.call})`;
  if (!isCallName(entry.call)) throw new UserError(`${where}: '${entry.call}' is not a verbs call this rvt-conform knows`);
  const schema = calls[entry.call];
  const args = schema.args.safeParse(reviveBigints(entry.args));
  if (!args.success) throw new UserError(`${where}: the recorded arguments do not parse: ${args.error.issues[0]?.message ?? ''}`);
  let result: unknown;
  if (entry.result !== undefined) {
    const parsed = schema.result.safeParse(reviveBigints(entry.result));
    if (!parsed.success) throw new UserError(`${where}: the recorded result does not parse: ${parsed.error.issues[0]?.message ?? ''}`);
    result = parsed.data;
  }
  return { seq: entry.seq, call: entry.call, args: args.data, result, error: entry.error } as AnyRecorded;
}

export function recordedCalls(kase: CaseResult): AnyRecorded[] {
  return kase.trace.map((entry) => retype(kase.id, entry));
}

/**
 * The steps of the program: consecutive polls of one CQ are one "poll until" step (the harness
 * polled in a loop until the completions came or its wait ran out; a device on another machine
 * delivers at its own pace), and so are consecutive async-event reads. Every other call is a step.
 */
export function steps(recorded: readonly AnyRecorded[]): AnyRecorded[][] {
  const out: AnyRecorded[][] = [];
  for (const call of recorded) {
    const last = out.at(-1);
    const previous = last?.at(-1);
    const continues =
      previous !== undefined &&
      ((call.call === 'pollCq' && previous.call === 'pollCq' && call.args.cq === previous.args.cq) ||
        (call.call === 'getAsyncEvents' && previous.call === 'getAsyncEvents'));
    if (continues && last) last.push(call);
    else out.push([call]);
  }
  return out;
}
