import { z } from 'zod';
import type { Session } from './adapter.js';
import { type CallName, type CallResult, calls, parseResult } from './calls.js';
import { fastParse } from '../spec/fast-parse.js';
import { Handle } from '../spec/verbs/ints.js';
import { WorkCompletion } from '../spec/verbs/wc.js';

/**
 * A batch: a list of verbs calls that the device side executes in order and answers with every
 * outcome at once, so that a sequence of many calls pays one round trip (the fuzzer's commands
 * against a device in a VM, where a crossing costs far more than the call). Outcomes are data
 * (a refused post is a result like any other): a batch stops early only when a step could not be
 * executed at all (a handle the session does not know, an adapter error), and says where.
 */

/** The calls a batch may hold: every verb but the concurrent workload, which is a batch of its own. */
export const BATCH_CALLS = [
  'queryDevice',
  'queryPort',
  'allocPd',
  'deallocPd',
  'regMr',
  'writeMr',
  'readMr',
  'deregMr',
  'createCq',
  'pollCq',
  'destroyCq',
  'createSrq',
  'modifySrq',
  'querySrq',
  'destroySrq',
  'postSrqRecv',
  'createQp',
  'modifyQp',
  'queryQp',
  'destroyQp',
  'postRecv',
  'postSend',
  'getAsyncEvents',
] as const satisfies readonly CallName[];
export type BatchCall = (typeof BATCH_CALLS)[number];

/**
 * Poll a CQ until `expect` completions have come or `waitMs` has passed, whichever is first: the
 * wait for an event the previous steps allow (a loopback send completing), not a fixed sleep.
 */
export const DrainArgs = z.object({
  cq: Handle,
  expect: z.number().int().min(0).max(4096),
  waitMs: z.number().int().min(0).max(60_000),
});
export type DrainArgs = z.infer<typeof DrainArgs>;
export const DrainResult = z.object({ completions: z.array(WorkCompletion) });

const callStep = <N extends BatchCall>(name: N) => z.object({ call: z.literal(name), args: calls[name].args });

export type BatchStep = { [N in BatchCall]: { call: N; args: z.output<(typeof calls)[N]['args']> } }[BatchCall] | { call: 'drainCq'; args: DrainArgs };
// Built from the call table, so the union's static type is spelled out above rather than inferred.
export const BatchStep = z.discriminatedUnion('call', [
  ...BATCH_CALLS.map(callStep),
  z.object({ call: z.literal('drainCq'), args: DrainArgs }),
] as unknown as [ReturnType<typeof callStep<BatchCall>>, ...ReturnType<typeof callStep<BatchCall>>[]]) as unknown as z.ZodType<BatchStep>;

/** The longest batch one request carries: a chunk of a sequence, not a whole run. */
export const MAX_BATCH_STEPS = 4096;

export const BatchArgs = z.object({ steps: z.array(BatchStep).max(MAX_BATCH_STEPS) });

/** One step's outcome, in step order; `error` when the step could not be executed (and the batch stopped there). */
export type StepResult = { [N in BatchCall]: { call: N; result: CallResult<N> } }[BatchCall] | { call: 'drainCq'; result: z.output<typeof DrainResult> } | { call: BatchStep['call']; error: string };

export interface BatchResult {
  results: StepResult[];
}

const StepError = z.object({ call: z.string(), error: z.string() });
const parseStepError = fastParse(StepError);
export const parseDrainResult = fastParse(DrainResult);
const parseEnvelope = fastParse(z.object({ results: z.array(z.looseObject({ call: z.string() })) }));

/** A batch's answer from another process, validated as each of its calls' results would be. */
export function parseBatchResult(raw: unknown): BatchResult {
  const { results } = parseEnvelope(raw);
  return {
    results: results.map((step): StepResult => {
      if ('error' in step) return parseStepError(step) as StepResult;
      if (step.call === 'drainCq') return { call: 'drainCq', result: parseDrainResult(step.result) };
      if (!(BATCH_CALLS as readonly string[]).includes(step.call)) throw new Error(`a batch answered a step ${step.call}, which no batch holds`);
      const call = step.call as BatchCall;
      return { call, result: parseResult[call](step.result) } as StepResult;
    }),
  };
}

const BATCH = 64;
/**
 * How long a drain polls again at once (a turn of the event loop apart) before it sleeps 1 ms
 * between polls: a driver that completes from its tasklet or work queue (rxe) does so within
 * microseconds of the post, and a 1 ms timer under TCG took longer than the command itself.
 */
const QUICK_POLLS_MS = 1;

/** Whether a drain's first poll is all of it: it found all there was and all that was expected. */
const drainedAtOnce = (first: readonly WorkCompletion[], expect: number) => first.length < BATCH && first.length >= expect;

/**
 * Every completion on `cq`, polling until `expect` have come or `waitMs` passed; `polled`: what
 * its first poll found, when the caller made that poll.
 */
export async function drain(session: Pick<Session, 'pollCq'>, { cq, expect, waitMs }: DrainArgs, polled?: WorkCompletion[]): Promise<WorkCompletion[]> {
  // Most drains are one poll that found all there was and all that was expected: no clock and
  // no copy (a fuzz command drains two to four CQs on each side).
  const first = polled ?? (await session.pollCq({ cq, max: BATCH })).completions;
  if (drainedAtOnce(first, expect)) return first;
  const got = [...first];
  const started = performance.now();
  for (let more = first.length === BATCH, again = false; ; again = true) {
    if (!more) {
      const waited = performance.now() - started;
      // waitMs 0 is one look, however fast the clock says the poll was; any other wait looks
      // again at least once, however long the process was kept from running since the first look
      // (on a loaded host a fuzz run of the model against itself diverged so: its finite RNR
      // retries run out on polls, not on the clock)
      if (got.length >= expect || waitMs === 0 || (again && waited > waitMs)) return got;
      await new Promise((resolve) => (waited < QUICK_POLLS_MS ? setImmediate(resolve) : setTimeout(resolve, 1)));
    }
    const { completions } = await session.pollCq({ cq, max: BATCH });
    got.push(...completions);
    more = completions.length === BATCH;
  }
}

/**
 * A batch executed call by call on `session`: what a device side without a batch request of its
 * own does, and the meaning every batched implementation must keep.
 */
export async function runStepsOneByOne(session: Session, steps: readonly BatchStep[]): Promise<BatchResult> {
  const results: StepResult[] = [];
  for (const step of steps) {
    try {
      if (step.call === 'drainCq') {
        results.push({ call: 'drainCq', result: { completions: await drain(session, step.args) } });
      } else {
        const run = session[step.call] as (args: unknown) => Promise<unknown>;
        results.push({ call: step.call, result: await run(step.args) } as StepResult);
      }
    } catch (error) {
      results.push(failed(step, error));
      break;
    }
  }
  return { results };
}

const failed = (step: BatchStep, error: unknown): StepResult => ({ call: step.call, error: error instanceof Error ? error.message : String(error) });

/** A session's verbs answered at once (an in-process model, adapters/model/session.ts modelCall). */
export type SyncCall = (name: BatchCall, args: never) => unknown;

/**
 * runStepsOneByOne on a session whose verbs also answer synchronously through `call`: the same
 * calls in the same order, without a promise per step (the fuzzer runs millions of steps on the
 * model). A drain that must wait beyond its first poll, and the steps after it, go on as
 * runStepsOneByOne's do; only then is the answer a promise.
 */
export function runStepsNow(session: Session, call: SyncCall, steps: readonly BatchStep[]): BatchResult | Promise<BatchResult> {
  const results: StepResult[] = [];
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k] as BatchStep;
    try {
      if (step.call !== 'drainCq') {
        results.push({ call: step.call, result: call(step.call, step.args as never) } as StepResult);
        continue;
      }
      const first = (call('pollCq', { cq: step.args.cq, max: BATCH } as never) as { completions: WorkCompletion[] }).completions;
      if (!drainedAtOnce(first, step.args.expect)) return drainThenRest(session, steps, k, first, results);
      results.push({ call: 'drainCq', result: { completions: first } });
    } catch (error) {
      results.push(failed(step, error));
      break;
    }
  }
  return { results };
}

/** runStepsNow from a drain that waits (step k, whose first poll found `first`) on. */
async function drainThenRest(session: Session, steps: readonly BatchStep[], k: number, first: WorkCompletion[], results: StepResult[]): Promise<BatchResult> {
  const step = steps[k] as Extract<BatchStep, { call: 'drainCq' }>;
  try {
    results.push({ call: 'drainCq', result: { completions: await drain(session, step.args, first) } });
  } catch (error) {
    results.push(failed(step, error));
    return { results };
  }
  results.push(...(await runStepsOneByOne(session, steps.slice(k + 1))).results);
  return { results };
}

/**
 * A batch executed on `session`: by the device side in one crossing where the session has a batch
 * of its own (the kernel module, a worker), step by step otherwise (the model). The fuzzer's one
 * door to a device, so a sequence pays a round trip per chunk, not per command.
 */
export function executeSteps(session: Session, steps: readonly BatchStep[]): Promise<BatchResult> {
  return session.runBatch === undefined ? runStepsOneByOne(session, steps) : session.runBatch(steps);
}
