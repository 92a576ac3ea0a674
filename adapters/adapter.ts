import { z } from 'zod';
import { Transport } from '../spec/clauses/schema.js';
import { Layer } from '../spec/layer.js';
import type { PostContext } from '../spec/verbs/outcome.js';
import type { BatchResult, BatchStep } from './batch.js';
import type { CallArgs, CallName, CallResult } from './calls.js';

/** What an implementation can do, declared by its adapter rather than guessed by the cases. */
export const Capability = z.enum([
  'srq',
  'srq_resize',
  'srq_limit_event',
  'rc_loopback',
  'ud',
  'async_events',
  'mr_data',
  /** Posts can be issued from irqs-off, softirq and hard-IRQ context, and the context is reported. */
  'post_contexts',
  /** runConcurrent: the implementation's own engine runs posters, consumers, a resizer and an armer at once on one SRQ. */
  'concurrent',
]);
export type Capability = z.infer<typeof Capability>;

/** A claimed capability tried on the device before the cases run (suites/probes.ts): only what worked is used. */
export const CapabilityProbe = z.object({
  capability: Capability,
  ok: z.boolean(),
  /** What the probe did, or where it stopped. */
  detail: z.string(),
  /** The call that refused, when one did, and its errno (or what it threw). */
  call: z.string().optional(),
  errno: z.string().optional(),
});
export type CapabilityProbe = z.infer<typeof CapabilityProbe>;

export const Profile = z.enum(['documented', 'rdmavt']);
export type Profile = z.infer<typeof Profile>;

export const AdapterInfo = z.object({
  /** The adapter the user chose, e.g. `model`, `rxe`. */
  adapter: z.string(),
  /** What implements the verbs, e.g. `rdmavt reference model`, `rdma-core rxe provider`. */
  implementation: z.string(),
  version: z.string(),
  layer: Layer,
  device: z.object({
    name: z.string(),
    driver: z.string().optional(),
    provider: z.string().optional(),
    fw_ver: z.string().optional(),
    kernel: z.string().optional(),
    rdma_core: z.string().optional(),
    /** The transport the device speaks, read from it: IB-only clauses do not bind an iWARP device. */
    transport: Transport.optional(),
  }),
  capabilities: z.array(Capability),
  defaultProfile: Profile,
  /** How the adapter reached the implementation, when a transport sits between (e.g. `grpc://host:port`). */
  via: z.string().optional(),
  /** How long cases wait for a completion or event that should come: short for a synchronous model. */
  completionWaitMs: z.number().int().min(1),
  /**
   * How long a case watches before it concludes that nothing (more) comes: no event, no further
   * completion. Shorter than completionWaitMs where the device delivers within milliseconds, since
   * every such case waits it out in full; completionWaitMs when absent. 0 where everything is
   * delivered before the call that caused it returns (a synchronous model): one look, no wait.
   */
  quietMs: z.number().int().min(0).optional(),
});
export type AdapterInfo = z.infer<typeof AdapterInfo>;

/** One verbs call of a session: validated arguments in, a result that the caller validates out. */
export type SessionCall<N extends CallName> = (args: CallArgs<N>) => Promise<CallResult<N>>;

/**
 * A session: one device context with everything created through it. `close()` releases
 * every resource the session still holds, so a failed case cannot leak into the next one.
 * `runBatch`, where the device side has one: the steps executed there in one crossing, with the
 * meaning of runStepsOneByOne (adapters/batch.ts); callers use executeSteps, which falls back to
 * that. Not a call of the call table: a session without it (the model, a gRPC agent) loses nothing
 * but speed, and the table's other users (gRPC codec, mutants) need no batch form.
 */
export type Session = { [N in CallName]: SessionCall<N> } & {
  close(): Promise<void>;
  runBatch?(steps: readonly BatchStep[]): Promise<BatchResult>;
};

/** What a watch saw while a case ran that no verb returned (e.g. a kernel splat). */
export interface WatchFinding {
  /** What was seen, in a sentence. */
  problem: string;
  /** The evidence, as the source had it (log lines). */
  lines: string[];
  /** The implementation can no longer be trusted (a kernel oops): the run must stop. */
  fatal: boolean;
}

/** Evidence an adapter gathers beside the verbs for each case, e.g. the kernel log. */
export interface CaseWatch {
  /**
   * Called before the case's first verb. Spans may overlap (an agent runs several clients' cases
   * at once): each sees everything from its start to its end, so a splat in that time is each
   * overlapping case's, since nothing tells which of them caused it. `caseId`: the case the span
   * is for, when the caller knows it (a watch that records per case keys its record by it).
   */
  start(caseId?: string): WatchSpan;
}

/** One case's time under a watch. */
export interface WatchSpan {
  /** Called after the case: what went wrong meanwhile, if anything. */
  end(): WatchFinding | undefined;
}

/**
 * `run` under a span of `watch`, ended however `run` ends (an open span would keep everything
 * the watch reads from then on): its value, and what the span saw.
 */
export async function watched<T>(watch: CaseWatch | undefined, run: () => Promise<T>, caseId?: string): Promise<{ value: T; finding: WatchFinding | undefined }> {
  const span = watch?.start(caseId);
  let value: T;
  try {
    value = await run();
  } catch (error) {
    span?.end();
    throw error;
  }
  return { value, finding: span?.end() };
}

/**
 * `adapter` with `extra` watching each case beside the adapter's own watch (read when a case
 * starts: the kernel adapter's appears with its first info()). A span's finding is the adapter's
 * watch's when it has one, else `extra`'s.
 */
export function withWatch(adapter: Adapter, extra: CaseWatch): Adapter {
  const watch: CaseWatch = {
    start(caseId) {
      const span = extra.start(caseId);
      let own: WatchSpan | undefined;
      try {
        own = adapter.watch?.start(caseId);
      } catch (error) {
        span.end();
        throw error;
      }
      return {
        end() {
          // the adapter's span ends even when extra's cannot read what it saw
          let theirs: WatchFinding | undefined;
          try {
            theirs = span.end();
          } finally {
            const mine = own?.end();
            if (mine !== undefined) theirs = mine;
          }
          return theirs;
        },
      };
    },
  };
  return {
    info: () => adapter.info(),
    open: () => adapter.open(),
    dispose: () => adapter.dispose(),
    watch,
    get caseHost() {
      return adapter.caseHost;
    },
  };
}

/**
 * How a case run in another process ended for the process that asked: the record that process
 * made of it (wire data, validated by the caller), or the process lost meanwhile (it crashed, or
 * hung past the budget and was killed) with the progress lines the case had written by then.
 * `finding`: what the host's own watch saw while the case ran there (an agent reading its
 * machine's kernel log), which the asking process's watch cannot see.
 */
export type HostedCaseEnd =
  /** `wire`: the record as wire JSON (adapters/remote/wire.ts), unparsed: an agent passes it on as it came. */
  | { kind: 'done'; wire: string; finding?: WatchFinding }
  | { kind: 'lost'; error: Error; timedOut: boolean; progress: string[]; finding?: WatchFinding }
  /** The host runs no cases after all (an agent that serves only verbs): the runner runs this one itself, verb by verb. */
  | { kind: 'declined' };

/**
 * Present when the implementation lives in another process that can run a whole built-in case
 * itself (suites/case-worker.ts): one crossing for the case instead of one per verb, which under
 * an emulated CPU is most of a case's time.
 */
export interface CaseHost {
  /**
   * Runs `request` (the suites' case request) in a worker that is up and has its device open
   * first, so neither start counts in `budgetMs`; a worker that passes the budget, or the signal's
   * abort, is killed.
   *
   * `next` is what the run will ask next when it knows (the next case that reaches the adapter is
   * hosted too): a host across a network may send it ahead, to start the moment this one ends, so
   * the run does not wait a round trip between cases. The next call may still ask something else
   * (the run stopped meanwhile, say), and gets what it asks.
   */
  runCase(request: unknown, budgetMs: number, signal?: AbortSignal, next?: HostedRequest): Promise<HostedCaseEnd>;
}

/** A request for a case host with its budget. */
export interface HostedRequest {
  request: unknown;
  budgetMs: number;
}

/** The only door to an implementation. */
export interface Adapter {
  info(): Promise<AdapterInfo>;
  open(): Promise<Session>;
  /** Releases what the adapter itself holds (a worker process, a connection). */
  dispose(): Promise<void>;
  /** Present when the adapter can see problems beside the verbs' results (the kernel adapter). */
  watch?: CaseWatch;
  caseHost?: CaseHost;
}

/** An adapter without calling contexts refuses any but process context instead of ignoring it. */
export function onlyProcessContext(context: PostContext | undefined, adapter: string): void {
  if (context !== undefined && context !== 'process') {
    throw new Error(`${adapter} cannot post from ${context} context: only the kernel adapter can`);
  }
}
