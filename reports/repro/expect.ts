import type { CallName } from '../../adapters/calls.js';
import { errnoName } from '../../spec/errno.js';
import { cString } from './c-syntax.js';
import type { Recorded } from './recorded.js';
import type { Scope } from './scope.js';

/** Writes the C for one step (a call, or a run of polls of one CQ or of async-event reads). */
export type Emitter<N extends CallName> = (group: readonly Recorded<N>[], scope: Scope) => string[];

/**
 * The recorded return value as the C side names it: "0", or the errno name with the sign dropped,
 * because a kernel-layer recording returns -EINVAL where libibverbs returns EINVAL. NULL when the
 * recording has no result (the call threw): the program then only prints what it gets.
 */
export const expectedReturn = (result: { rawReturn: number } | undefined): string =>
  result === undefined ? 'NULL' : cString(result.rawReturn === 0 ? '0' : errnoName(result.rawReturn));

export const checkReturn = (call: Recorded<CallName>, actual: string): string =>
  `check_str(${call.seq}, ${cString(call.call)}, "return", ${expectedReturn(call.result as { rawReturn: number } | undefined)}, errno_name(${actual}));`;

/** A header line for a step: the recorded seq(s) and call, and what the recording got when it threw. */
export function stepTitle(group: readonly Recorded<CallName>[], what: string): string {
  const first = group[0];
  const last = group.at(-1);
  const seqs = first === undefined || last === undefined ? '' : first.seq === last.seq ? `#${first.seq}` : `#${first.seq}-#${last.seq}`;
  const threw = group.find((c) => c.error !== undefined)?.error;
  return `${seqs} ${first?.call ?? ''}: ${what}${threw === undefined ? '' : ` (in the recording it threw: ${threw})`}`;
}
