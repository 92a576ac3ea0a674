import { type ConcurrentPlan, Placement, RECORD_WIDTH, RecordKind } from '../../adapters/concurrent.js';
import type { Capability } from '../../adapters/adapter.js';
import { defineCase } from '../case.js';
import type { CaseContext } from '../context.js';
import { type CheckOutcome, type ClauseId, checkHistory } from './checker.js';
import { type WorkloadShape, planWorkload } from './plan.js';

/**
 * The concurrent tier (issue 17): each case runs one seeded workload through the implementation's
 * own engine (runConcurrent) and checks the whole history against the SRQ's sequential contract.
 * The plans are fixed by their seeds, so a run is repeatable as far as the device's scheduling is.
 */

/** 4,000 WRs: a second or two on a device under TCG, a fifth of a second on the model, and a ring of 64 filled many times over. */
const BASE: WorkloadShape = { posters: 4, consumers: 4, wrs: 4000, max_wr: 64, resizes: 0, arms: 0, hardirqPosters: 0, numSge: 0, consumerDepth: 16, timeoutMs: 60_000 };

/** What in a history exercises a clause: without any, the run could not have broken it, so it is not a pass. */
const EXERCISED: Record<ClauseId, { kinds: readonly number[]; errno?: number; placed?: true; none: string }> = {
  'post_srq_recv.concurrent.exactly-once': { kinds: [RecordKind.RECV], none: 'no receive was recorded' },
  'post_srq_recv.concurrent.fifo': { kinds: [RecordKind.RECV], none: 'no receive was recorded' },
  'post_srq_recv.concurrent.lands-in-own-sges': {
    kinds: [RecordKind.RECV],
    placed: true,
    none: 'no receive recorded where its payload landed: this engine does not check data placement (it runs the plan with zero-length SENDs)',
  },
  'post_srq_recv.concurrent.enomem-when-full': { kinds: [RecordKind.POST], errno: 12, none: 'no post was refused with ENOMEM: the posters never found the SRQ full' },
  'post_srq_recv.concurrent.capacity-exact': { kinds: [RecordKind.POST], errno: 12, none: 'the SRQ never filled, so nothing could overfill it' },
  'srq_limit.concurrent.once-per-arm': { kinds: [RecordKind.ARM], errno: 0, none: 'no arming of the limit succeeded' },
  'srq_limit.concurrent.fires-below': { kinds: [RecordKind.ARM], errno: 0, none: 'no arming of the limit succeeded' },
  'srq_limit.concurrent.not-above': { kinds: [RecordKind.LIMIT_EVENT], none: 'no limit event was read' },
};

/**
 * A history counted in one pass, for every clause's question at once: operations by kind, by kind
 * and errno (a POST's is field c, a modify's field b), and the receives whose placement was
 * checked (field d not 0). A pass per clause read the four plans' 300 k numbers 14 times.
 */
interface Tally {
  byKind: number[];
  /** Of the kinds in ERRNO_KINDS. */
  byErrno: Map<number, number>[];
  placed: number;
}

/** The kinds whose errnos a clause or the census asks about (posts and arms, not the receives that make most of a history). */
const ERRNO_KINDS = new Set([RecordKind.POST, ...Object.values(EXERCISED).flatMap((e) => (e.errno === undefined ? [] : e.kinds))]);

function tally(records: readonly number[]): Tally {
  const byKind = [0, 0, 0, 0, 0];
  const byErrno = byKind.map(() => new Map<number, number>());
  let placed = 0;
  for (let i = 0; i < records.length; i += RECORD_WIDTH) {
    const kind = records[i + 1] as number;
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    if (kind === RecordKind.RECV && records[i + 7] !== Placement.UNCHECKED) placed++;
    if (ERRNO_KINDS.has(kind)) {
      const err = records[i + (kind === RecordKind.POST ? 6 : 5)] as number;
      const counts = byErrno[kind] as Map<number, number>;
      counts.set(err, (counts.get(err) ?? 0) + 1);
    }
  }
  return { byKind, byErrno, placed };
}

/** How many records exercise a clause: of its kinds, with its errno, and for placement receives whose placement was checked. */
function exercised(seen: Tally, clause: ClauseId): number {
  const { kinds, errno, placed } = EXERCISED[clause];
  if (placed) return seen.placed;
  return kinds.reduce((n, kind) => n + (errno === undefined ? (seen.byKind[kind] ?? 0) : (seen.byErrno[kind]?.get(errno) ?? 0)), 0);
}

/** The operations of a history by kind, for the report: what the verdict rests on. */
function census(seen: Tally): Record<string, number> {
  const names = ['posts', 'receives', 'resizes', 'arms', 'limit events'];
  const posts = seen.byKind[RecordKind.POST] ?? 0;
  return { ...Object.fromEntries(names.map((n, kind) => [n, seen.byKind[kind] ?? 0])), 'posts refused': posts - (seen.byErrno[RecordKind.POST]?.get(0) ?? 0) };
}

/** Records one check per clause: held when the checker found no violation of it, with the counterexample when not. */
function judge(ctx: CaseContext, clauses: readonly ClauseId[], records: readonly number[], outcome: CheckOutcome): void {
  const counted = tally(records);
  const seen = census(counted);
  for (const clause of clauses) {
    const count = outcome.counts.filter((c) => c.clause === clause).reduce((n, c) => n + c.count, 0);
    if (count === 0 && exercised(counted, clause) === 0) {
      ctx.check.notObservable(clause, `this run did not exercise it: ${EXERCISED[clause].none} (${outcome.operations} operations)`);
      continue;
    }
    const violations = outcome.violations.filter((v) => v.clause === clause);
    ctx.check.that(
      clause,
      `the history of ${outcome.operations} operations, checked for linearizability against the SRQ as a bounded FIFO`,
      count === 0,
      'no violation',
      count === 0 ? { violations: 0, history: seen } : { violations: count, history: seen, counterexamples: violations },
    );
  }
}

export interface ConcurrentCaseDef {
  name: string;
  title: string;
  clauses: readonly ClauseId[];
  requires: readonly Capability[];
  seed: number;
  shape: Partial<WorkloadShape>;
  /** Post shape.numSge SGEs a WR, or as many as the device's SRQ takes (max_srq_sge) when fewer. */
  sgeUpToDevice?: true;
}

/**
 * The plan a concurrent case runs on a device: its seed drawn over its shape, with the SGEs a WR
 * cut to what the device's SRQ takes where the case says so. A reproducer derives the same plan
 * from the seed (reports/repro/concurrent), so this is the one place the rule lives.
 */
export function casePlan(workload: Pick<ConcurrentCaseDef, 'seed' | 'shape' | 'sgeUpToDevice'>, device: { max_srq_sge: number }): ConcurrentPlan {
  const shape = { ...BASE, ...workload.shape };
  if (workload.sgeUpToDevice) shape.numSge = Math.min(shape.numSge, device.max_srq_sge);
  return planWorkload(shape, workload.seed);
}

function concurrentCase(def: ConcurrentCaseDef) {
  return defineCase({
    id: `concurrent/${def.name}`,
    verb: def.clauses[0]?.split('.')[0] ?? 'post_srq_recv',
    title: def.title,
    clauses: def.clauses,
    requires: ['srq', 'rc_loopback', 'concurrent', ...def.requires],
    async run(ctx) {
      const plan = casePlan(def, ctx.device);
      const out = await ctx.verbs.runConcurrent(plan);
      // The checker reads exactly: rdmavt's ring holds max_wr; elsewhere capacity-exact is a reference clause, not binding.
      const outcome = checkHistory({ max_wr: plan.max_wr, srq_limit: 0, capacity: 'exact', records: out.records });
      judge(ctx, def.clauses, out.records, outcome);
      // A workload that stopped early is a verdict only where its history already shows a violation
      // (a lost WQE starves a consumer until the deadline); otherwise nothing was decided.
      if (out.err !== 0 && outcome.linearizable) {
        throw new Error(`the concurrent workload stopped at ${out.stage} with errno ${out.err} after ${outcome.operations} operations`);
      }
    },
  });
}

/** Each case's workload: its seed and shape, which a reproducer looks up by the case's id. */
const WORKLOADS: readonly ConcurrentCaseDef[] = [
  {
    name: 'posters-and-consumers',
    title: '4 posters (16 zero-length SGEs a WR) and 4 consumers, 8,000 WRs on one SRQ of 1,024: every WR received once, in order, ENOMEM only when full',
    clauses: ['post_srq_recv.concurrent.exactly-once', 'post_srq_recv.concurrent.fifo', 'post_srq_recv.concurrent.enomem-when-full', 'post_srq_recv.concurrent.capacity-exact'],
    requires: [],
    seed: 17_001,
    // Each SGE is written into the slot between reading the head and publishing it, and a ring that
    // is rarely full keeps the posters posting rather than backing off: posts overlap each other more.
    shape: { numSge: 16, max_wr: 1024, wrs: 8000 },
  },
  {
    name: 'resize-while-posting',
    title: 'The same while the SRQ is resized 8 times (grown and shrunk): no WQE lost or reordered',
    clauses: ['post_srq_recv.concurrent.exactly-once', 'post_srq_recv.concurrent.fifo', 'post_srq_recv.concurrent.capacity-exact'],
    requires: ['srq_resize'],
    seed: 17_002,
    shape: { resizes: 8 },
  },
  {
    name: 'limit-while-consuming',
    title: 'The limit armed 12 times while 4 consumers, one SEND in flight each, drain the SRQ: at most one event per arming, one whenever it fell below, none while it stayed at or above',
    clauses: ['srq_limit.concurrent.once-per-arm', 'srq_limit.concurrent.fires-below', 'srq_limit.concurrent.not-above'],
    requires: ['srq_limit_event', 'async_events'],
    seed: 17_003,
    // Limits 17 to max_wr / 4: above rvt_get_rwqe's recount threshold (16), where a stale cached count could show.
    // One SEND in flight per consumer: each receive's interval is one delivery, so the fewest WQEs the SRQ
    // certainly holds (what not-above rests on) is within a few of what it holds; and slower consumers keep
    // the SRQ near full, where a count cached since the last recount lags the posts most.
    shape: { arms: 12, max_wr: 256, consumerDepth: 1 },
  },
  {
    name: 'payload-placement',
    title: '4 posters and 4 consumers, 12,000 WRs on an SRQ of 4, each SEND 64 bytes into the last of its WR\'s 128 SGEs (or as many as the device takes; a buffer per WR): every payload in the SGEs of the WR that completed',
    clauses: ['post_srq_recv.concurrent.lands-in-own-sges', 'post_srq_recv.concurrent.exactly-once', 'post_srq_recv.concurrent.fifo'],
    requires: [],
    seed: 17_005,
    // A ring of 4 slots is drained empty while the posters back off from a refusal: consumers are then
    // retrying (RNR) when a post lands, and below rvt_get_rwqe's recount threshold every one of them reads
    // the head. One that takes a slot the post has not finished writing reads the previous occupant's
    // last SGE, and a slot has one every 5 WRs: the payload lands in that WR's buffer, not its own.
    // The more SGEs a post writes after the head, the wider that window: 128 (rdmavt's hfi1 and rvt_sim0
    // take 128, rxe 27). Measured with the C mutant srq-head-published-early on rvt_sim0 under TCG, 24
    // SGEs: 1-1.7 such receives per 1,000 WRs on a quiet host, a seventh of that with two CPU-bound loops
    // beside the VM. More WRs cost every engine time: the model runs this plan once per model mutant.
    shape: { max_wr: 4, numSge: 128, payload: 64, wrs: 12_000 },
    sgeUpToDevice: true,
  },
  {
    name: 'hardirq-posters',
    title: '4 posters (16 zero-length SGEs a WR), 2 of them from a hard-IRQ timer ("may be called from interrupt context"), and 4 consumers, 8,000 WRs on one SRQ of 1,024',
    clauses: ['post_srq_recv.concurrent.exactly-once', 'post_srq_recv.concurrent.fifo'],
    requires: ['post_contexts'],
    seed: 17_004,
    // A timer poster interrupts a kthread poster on its CPU wherever that one is not under a lock that masks IRQs.
    shape: { hardirqPosters: 2, numSge: 16, max_wr: 1024, wrs: 8000 },
  },
];

export const concurrentCases = WORKLOADS.map(concurrentCase);

/** The workload of the concurrent case `caseId` (concurrent/NAME), or undefined for any other case. */
export const concurrentWorkload = (caseId: string): ConcurrentCaseDef | undefined => WORKLOADS.find((w) => `concurrent/${w.name}` === caseId);
