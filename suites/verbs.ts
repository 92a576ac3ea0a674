import type { Session } from '../adapters/adapter.js';
import { RECORD_WIDTH } from '../adapters/concurrent.js';
import { type CallArgsInput, type CallName, type CallResult, callNames, calls } from '../adapters/calls.js';
import type { Layer } from '../spec/layer.js';
import { type Normalised, normaliseReturn } from '../spec/verbs/outcome.js';

/** A result with a return value also carries its normalised errno and sign. */
export type WithNormalised<R> = R extends { rawReturn: number } ? R & Normalised : R;

/** The session as cases see it: arguments validated and defaulted, results validated and normalised. */
export type Verbs = { [N in CallName]: (args: CallArgsInput<N>) => Promise<WithNormalised<CallResult<N>>> };

/** One verbs call as the trace records it. */
export interface TraceEntry {
  seq: number;
  call: CallName;
  args: unknown;
  result?: unknown;
  error?: string;
  ms: number;
}

/**
 * How a result is kept in the trace where it differs from the result itself: a concurrent
 * workload's history (millions of numbers) stays with its case's checks, which cite what matters.
 */
const TRACED: Partial<Record<CallName, (result: Record<string, unknown>) => Record<string, unknown>>> = {
  runConcurrent: (result) => ({ ...result, records: [], operations: Array.isArray(result.records) ? result.records.length / RECORD_WIDTH : 0 }),
};

/** `result` with, where it has a return value, its normalised errno and sign. */
function withNormalised(result: Record<string, unknown>, layer: Layer): Record<string, unknown> {
  const errnoSet = typeof result.errnoSet === 'number' ? result.errnoSet : undefined;
  return typeof result.rawReturn === 'number' ? { ...result, ...normaliseReturn(result.rawReturn, layer, errnoSet) } : result;
}

/**
 * The verbs of a session that this process's model serves (adapters/model/session.ts modelCall),
 * as tracedVerbs gives them but neither validated nor traced: no boundary lies between the caller
 * and the model's own values, and a caller that opens sessions by the thousand (the fuzzer, two a
 * run) spent a good part of its setup parsing them. Arguments are passed as given: no defaults.
 */
export function modelVerbs(session: Session, layer: Layer): Verbs {
  const verbs = {} as Record<CallName, (args: unknown) => Promise<unknown>>;
  for (const name of callNames) verbs[name] = async (args: unknown) => withNormalised((await (session[name] as (a: unknown) => Promise<unknown>)(args)) as Record<string, unknown>, layer);
  return verbs as unknown as Verbs;
}

/** The adapter broke its own contract (malformed result): a harness-level error, not a verbs failure. */
export class AdapterContractError extends Error {
  override name = 'AdapterContractError';
}

/**
 * Wraps a session: this is the boundary where adapter output is validated, so nothing after it
 * re-checks shapes. Every call lands in `trace`, which the reproducer and the reports read;
 * `beforeCall` sees it there before the session does (a worker's progress file).
 */
export function tracedVerbs(session: Session, layer: Layer, trace: TraceEntry[], beforeCall?: () => void): Verbs {
  const verbs = {} as Record<CallName, (args: unknown) => Promise<unknown>>;
  for (const name of callNames) {
    const schema = calls[name];
    verbs[name] = async (input: unknown) => {
      const args = schema.args.parse(input);
      const entry: TraceEntry = { seq: trace.length + 1, call: name, args, ms: 0 };
      trace.push(entry);
      beforeCall?.();
      const started = performance.now();
      try {
        const raw = await (session[name] as (a: unknown) => Promise<unknown>)(args);
        const parsed = schema.result.safeParse(raw);
        if (!parsed.success) {
          throw new AdapterContractError(`adapter returned a malformed result for ${name}: ${parsed.error.message}`);
        }
        const normalised = withNormalised(parsed.data as Record<string, unknown>, layer);
        entry.result = TRACED[name]?.(normalised) ?? normalised;
        return normalised;
      } catch (error) {
        entry.error = error instanceof Error ? error.message : String(error);
        throw error;
      } finally {
        entry.ms = performance.now() - started;
      }
    };
  }
  return verbs as unknown as Verbs;
}
