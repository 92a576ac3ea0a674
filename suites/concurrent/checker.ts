import { z } from 'zod';
import { Placement, RECORD_WIDTH, RecordKind } from '../../adapters/concurrent.js';
import { ConcurrentHistory, type DecodedHistory, F, Operation, decodeHistory, operationAt } from './history.js';

/**
 * The linearizability checker for a concurrent SRQ history (issue 17).
 *
 * What "linearizable" means here: there is a total order of the operations' effects, each placed
 * at one instant inside its operation's [invoke, response] interval (so it respects real time: an
 * operation that responded before another was invoked comes first), that is a run of the
 * sequential SRQ of rdmavt (rvt_post_srq_recv / rvt_get_rwqe / rvt_modify_srq): a bounded FIFO of
 * WQEs. A post's WRs are separate effects in list order (rdmavt takes its lock per WR), the
 * refused one (ENOMEM) finds the queue full; a receive takes the oldest WQE (a failed completion,
 * status != 0, takes its own WQE, with no FIFO duty); a successful resize keeps every WQE and,
 * under rdmavt's exact capacity, only happens when the WQEs fit; an arm sets srq_limit, and the
 * first successful receive after which fewer than srq_limit WQEs remain disarms it and raises one
 * limit event, which is read (a LIMIT_EVENT record) after it was raised and by the history's end.
 * suites/concurrent/wgl.ts is this definition as an exhaustive search, the tests' reference.
 *
 * How: the aspect-oriented characterisation of queues with unique values (Henzinger, Sezgin,
 * Vafeiadis, CONCUR 2013): such a history of an unbounded queue is linearizable iff it has none of
 * VFresh (a value dequeued that was never enqueued, or before its enqueue was invoked), VRepet (a
 * value dequeued twice), VOrd (enq(x) precedes enq(y), y is dequeued, and x is dequeued after y or
 * never) and VWit (a dequeue on empty; never recorded here: a consumer's SEND waits for a WQE).
 * Each is a sort and a sweep. The capacity and limit rules are then checked on bounds of the
 * SRQ's occupancy swept over the sorted time points: at most (WRs of posts invoked by t) -
 * (receives done before t), at least (WRs of posts done before t) - (receives invoked by t),
 * with range-maximum trees for the questions about an operation's whole interval. Everything is
 * O(n log n) in time and O(n) in memory for n operations, whatever the batch sizes.
 *
 * lands-in-own-sges is not about the order at all: a receive of a plan with a payload records (field
 * d) whether the SEND's bytes landed in the buffer of the WR whose wr_id it completed, with the
 * SEND's length; each one that did not is a violation on its own (a consumer that took a slot the
 * post had not finished writing puts the data in the previous occupant's SGEs).
 *
 * Exact: exactly-once and fifo. For the SRQ as an unbounded FIFO (no refusal, no arm, no event,
 * capacity 'at-least') a history is linearizable iff neither reports; the tests check this
 * against the search. Conservative (each violation reported is certain, but a history may pass
 * them and still not be linearizable, because the bounds ignore the order the FIFO imposes):
 * enomem-when-full, capacity-exact (with resize-below-count), once-per-arm (it counts armings,
 * not whether a receive could have raised each event: an event no dequeue could have raised
 * passes) and fires-below (it asks for an event only when one arming was certainly in force for
 * a whole receive that certainly left fewer than srq_limit WQEs). So `linearizable: false` is
 * always a proof (each witness fails on its own); `linearizable: true` is exact for the FIFO and
 * "no violation found" for the rest.
 *
 * The history must be complete (every operation responded; a run stopped at its deadline may hold
 * receives nobody polled) and differentiated (no wr_id accepted twice); the latter is checked.
 */

export const ClauseId = z.enum([
  'post_srq_recv.concurrent.exactly-once',
  'post_srq_recv.concurrent.fifo',
  'post_srq_recv.concurrent.lands-in-own-sges',
  'post_srq_recv.concurrent.enomem-when-full',
  'post_srq_recv.concurrent.capacity-exact',
  'srq_limit.concurrent.once-per-arm',
  'srq_limit.concurrent.fires-below',
  'srq_limit.concurrent.not-above',
]);
export type ClauseId = z.infer<typeof ClauseId>;

export const Violation = z.object({
  clause: ClauseId,
  /** e.g. 'invented', 'duplicated', 'received-before-posted', 'receive-failed', 'lost', 'reordered'. */
  kind: z.string(),
  message: z.string(),
  /** A small sub-history that shows the violation on its own, ordered by invoke. */
  witness: z.array(Operation),
});
export type Violation = z.infer<typeof Violation>;

export const ViolationCount = z.object({ clause: ClauseId, kind: z.string(), count: z.number().int().min(1) });

export const CheckOutcome = z.object({
  operations: z.number().int().min(0),
  linearizable: z.boolean(),
  /** At most REPORTED_PER_KIND per (clause, kind), earliest first. */
  violations: z.array(Violation),
  /** How many violations of each (clause, kind) there were in all, reported or not. */
  counts: z.array(ViolationCount),
});
export type CheckOutcome = z.infer<typeof CheckOutcome>;

/** A broken driver's million-operation history should give a readable report, not a million entries. */
export const REPORTED_PER_KIND = 5;

const ENOMEM = 12;
const C = {
  once: 'post_srq_recv.concurrent.exactly-once',
  fifo: 'post_srq_recv.concurrent.fifo',
  placement: 'post_srq_recv.concurrent.lands-in-own-sges',
  enomem: 'post_srq_recv.concurrent.enomem-when-full',
  capacity: 'post_srq_recv.concurrent.capacity-exact',
  oncePerArm: 'srq_limit.concurrent.once-per-arm',
  firesBelow: 'srq_limit.concurrent.fires-below',
  notAbove: 'srq_limit.concurrent.not-above',
} as const satisfies Record<string, ClauseId>;

// ---- small array helpers -------------------------------------------------------------------

/** First i in [0, n) with a[i] >= x (n when none). */
function lowerBound(a: Float64Array, n: number, x: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First i in [0, n) with a[i] > x (n when none). */
function upperBound(a: Float64Array, n: number, x: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `ids` ordered by key(id), ties kept in the order given (record order, so "first" is
 * deterministic). The keys go through the typed array's native numeric sort and each id finds its
 * place by binary search: several times faster than a sort with a comparator on a million ids.
 */
function argsort(ids: ArrayLike<number>, key: (id: number) => number): Int32Array {
  const m = ids.length;
  const keys = new Float64Array(m);
  for (let i = 0; i < m; i++) keys[i] = key(ids[i] as number);
  const sorted = keys.slice().sort();
  const taken = new Int32Array(m);
  const out = new Int32Array(m);
  for (let i = 0; i < m; i++) {
    const at = lowerBound(sorted, m, keys[i] as number);
    out[at + taken[at]!++] = ids[i] as number;
  }
  return out;
}

/** lowerBound on a sorted array by bucket, then binary search in it: O(1) for values spread as a run's times are. */
function indexer(sorted: Float64Array, n: number): (x: number) => number {
  if (n === 0) return () => 0;
  const first = sorted[0] as number;
  const buckets = Math.max(1, n >> 2);
  const scale = buckets / ((sorted[n - 1] as number) - first + 1);
  const bucketOf = (x: number) => Math.min(buckets - 1, Math.max(0, Math.floor((x - first) * scale)));
  // start[b]: the first index whose value is in bucket b or later.
  const start = new Int32Array(buckets + 1);
  let b = 0;
  for (let i = 0; i < n; i++) {
    const bi = bucketOf(sorted[i] as number);
    while (b <= bi) start[b++] = i;
  }
  while (b <= buckets) start[b++] = n;
  return (x) => {
    const bx = bucketOf(x);
    let lo = start[bx] as number;
    let hi = start[bx + 1] as number;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Range maximum over a fixed array: an iterative segment tree, O(log n) per query. */
function rangeMax(values: Float64Array, n: number): (lo: number, hi: number) => number {
  const tree = new Float64Array(2 * n);
  tree.set(values.subarray(0, n), n);
  for (let i = n - 1; i > 0; i--) tree[i] = Math.max(tree[2 * i] as number, tree[2 * i + 1] as number);
  /** Max of values[lo..hi], both inclusive. */
  return (lo, hi) => {
    let best = -Infinity;
    for (let l = lo + n, r = hi + n + 1; l < r; l >>= 1, r >>= 1) {
      if (l & 1) best = Math.max(best, tree[l++] as number);
      if (r & 1) best = Math.max(best, tree[--r] as number);
    }
    return best;
  };
}

/** A binary heap of ids, ordered by `before`. */
function heap(before: (x: number, y: number) => boolean) {
  const h: number[] = [];
  return {
    get size() {
      return h.length;
    },
    top: () => h[0] as number,
    push(x: number) {
      let i = h.push(x) - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!before(h[i] as number, h[p] as number)) break;
        [h[i], h[p]] = [h[p] as number, h[i] as number];
        i = p;
      }
    },
    pop() {
      const last = h.pop() as number;
      if (h.length === 0) return;
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l] as number, h[m] as number)) m = l;
        if (r < h.length && before(h[r] as number, h[m] as number)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m] as number, h[i] as number];
        i = m;
      }
    },
  };
}

// ---- findings ------------------------------------------------------------------------------

interface Found {
  message: string;
  /** Record indices. */
  witness: number[];
}

/** Counts every violation, keeps the first REPORTED_PER_KIND of each kind (built only then). */
function findings(h: DecodedHistory) {
  const violations: Violation[] = [];
  const counts = new Map<string, { clause: ClauseId; kind: string; count: number; reported: number }>();
  const invoke = (i: number) => h.records[i * RECORD_WIDTH + F.invoke] as number;
  return {
    /** `times` violations of one kind found together (e.g. the WQEs one post lost): one entry reports them. */
    add(clause: ClauseId, kind: string, describe: () => Found, times = 1): void {
      const key = `${clause} ${kind}`;
      let entry = counts.get(key);
      if (entry === undefined) counts.set(key, (entry = { clause, kind, count: 0, reported: 0 }));
      entry.count += times;
      if (entry.reported++ >= REPORTED_PER_KIND) return;
      const { message, witness } = describe();
      const ops = [...new Set(witness)].sort((x, y) => invoke(x) - invoke(y) || x - y);
      violations.push({ clause, kind, message, witness: ops.map((i) => operationAt(h, i)) });
    },
    outcome(operations: number): CheckOutcome {
      const all = [...counts.values()].map(({ clause, kind, count }) => ({ clause, kind, count }));
      return { operations, linearizable: counts.size === 0, violations, counts: all };
    },
  };
}

const ns = (t: number) => `${t} ns`;

// ---- the checker ---------------------------------------------------------------------------

/**
 * The histories checked last in this process, with their outcomes. A mutation run gives the
 * checker the same histories again and again (the reference's plans, which most mutants leave
 * alone, once per mutant: 272 checks of 28 distinct histories, 5 s of `npm test`); a check is a
 * function of the history alone, so a history equal to one kept here, number for number, has that
 * one's outcome. Another history differs from each kept one within its first records, so looking
 * costs a device's run next to nothing. A copy is returned, so no caller changes the next one's.
 */
const checked: { params: string; records: Float64Array; outcome: CheckOutcome }[] = [];
const CHECKED_KEPT = 8;
const CHECKED_NUMBERS = 1 << 21;

function sameRecords(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Forgets the kept histories: a benchmark's every run then checks, as a process's first run does. */
export function forgetCheckedHistories(): void {
  checked.length = 0;
}

/** checkHistory without the kept histories: what a check costs (bench/concurrent-checker.ts). */
export function checkHistoryAfresh(history: ConcurrentHistory): CheckOutcome {
  const params = ConcurrentHistory.parse(history);
  return checkDecoded(params, decodeHistory(params.records));
}

/** Decodes (validating) and checks a history; throws an Error only for a malformed or non-differentiated one. */
export function checkHistory(history: ConcurrentHistory): CheckOutcome {
  const params = ConcurrentHistory.parse(history);
  const h = decodeHistory(params.records);
  const key = `${params.max_wr} ${params.srq_limit} ${params.capacity}`;
  const known = checked.find((c) => c.params === key && sameRecords(c.records, h.records));
  if (known !== undefined) return structuredClone(known.outcome);
  const outcome = checkDecoded(params, h);
  if (h.records.length <= CHECKED_NUMBERS) {
    // Its own copy of the records: the caller's Float64Array is the caller's to change. Numbers
    // from an array were copied into a Float64Array of the check's own already (decodeHistory).
    const own = h.records === params.records ? h.records.slice() : h.records;
    checked.push({ params: key, records: own, outcome: structuredClone(outcome) });
    // Oldest first.
    while (checked.length > CHECKED_KEPT || checked.reduce((n, c) => n + c.records.length, 0) > CHECKED_NUMBERS) checked.shift();
  }
  return outcome;
}

/** The fields of a decoded history's operations, by operation index. */
function fieldsOf(rec: Float64Array) {
  return {
    inv: (i: number) => rec[i * RECORD_WIDTH + F.invoke] as number,
    resp: (i: number) => rec[i * RECORD_WIDTH + F.response] as number,
    fa: (i: number) => rec[i * RECORD_WIDTH + F.a] as number,
    fb: (i: number) => rec[i * RECORD_WIDTH + F.b] as number,
    fc: (i: number) => rec[i * RECORD_WIDTH + F.c] as number,
    fd: (i: number) => rec[i * RECORD_WIDTH + F.d] as number,
  };
}

/**
 * The history indexed for the clauses' sweeps: its operations by kind, the posts that accepted
 * WRs ("slots") with the receives of their WQEs grouped by position, and the findings so far.
 * Each clause is a function of its own, so that V8 optimises each sweep apart, soon and cheaply:
 * as one function of 650 lines, its optimised code took 300 ms of compiling beside a 100 ms check.
 */
function indexHistory(params: ConcurrentHistory, h: DecodedHistory) {
  const rec = h.records;
  const n = h.length;
  const found = findings(h);
  const f = fieldsOf(rec);
  const { fa, fb, fd } = f;
  // Operations by kind, in record order.
  const posts: number[] = [];
  const recvs: number[] = [];
  const resizes: number[] = [];
  const arms: number[] = [];
  const events: number[] = [];
  for (let i = 0; i < n; i++) {
    const kind = rec[i * RECORD_WIDTH + F.kind];
    if (kind === RecordKind.POST) posts.push(i);
    else if (kind === RecordKind.RECV) recvs.push(i);
    else if (kind === RecordKind.RESIZE) resizes.push(i);
    else if (kind === RecordKind.ARM) arms.push(i);
    else events.push(i);
  }

  // ---- which post each received wr_id came from ----------------------------------------------
  // Posts that accepted WRs ("slots"), by first wr_id, so a wr_id is found by binary search
  // without a map of every WR: memory stays O(operations) whatever the batch sizes.
  const slotPost = argsort(
    posts.filter((p) => fd(p) > 0),
    fa,
  );
  const S = slotPost.length;
  const slotFirst = new Float64Array(S);
  for (let s = 0; s < S; s++) {
    const p = slotPost[s] as number;
    slotFirst[s] = fa(p);
    const prev = s > 0 ? (slotPost[s - 1] as number) : -1;
    if (prev >= 0 && fa(p) < fa(prev) + fd(prev)) {
      throw new Error(
        `history: records ${prev} and ${p} both posted wr_id ${fa(p)}: the checker needs each wr_id posted (accepted) once (the workload chooses them)`,
      );
    }
  }

  const R = recvs.length;
  const recvSlot = new Int32Array(R).fill(-1);
  const recvPos = new Float64Array(R);
  const slotCount = new Int32Array(S + 1);
  for (let k = 0; k < R; k++) {
    const r = recvs[k] as number;
    const wr = fa(r);
    const s = upperBound(slotFirst, S, wr) - 1;
    if (s >= 0 && wr < (slotFirst[s] as number) + fd(slotPost[s] as number)) {
      recvSlot[k] = s;
      recvPos[k] = wr - (slotFirst[s] as number);
      slotCount[s + 1]!++;
    } else if (fb(r) === 0) {
      found.add(C.once, 'invented', () => ({ message: `record ${r} received wr_id ${wr}, which no post accepted`, witness: [r] }));
    } else {
      found.add(C.once, 'receive-failed', () => ({
        message: `record ${r} completed wr_id ${wr} with status ${fb(r)}, and no post accepted that wr_id`,
        witness: [r],
      }));
    }
  }
  // Receives grouped by slot (a counting sort), each group by position in the list, then record.
  for (let s = 0; s < S; s++) slotCount[s + 1]! += slotCount[s] as number;
  const slotStart = slotCount; // slotStart[s] .. slotStart[s+1]
  const grouped = new Int32Array(R);
  {
    const fill = slotStart.slice(0, S);
    for (let k = 0; k < R; k++) {
      const s = recvSlot[k] as number;
      if (s >= 0) grouped[fill[s]!++] = k;
    }
  }
  const byPos = (x: number, y: number) => (recvPos[x] as number) - (recvPos[y] as number) || x - y;
  for (let s = 0; s < S; s++) {
    const lo = slotStart[s] as number;
    const hi = slotStart[s + 1] as number;
    if (hi - lo > 32) grouped.subarray(lo, hi).sort(byPos);
    else {
      // A list's receives are few (a batch): an insertion sort beats a sort call per post.
      for (let i = lo + 1; i < hi; i++) {
        const k = grouped[i] as number;
        let j = i - 1;
        for (; j >= lo && byPos(grouped[j] as number, k) > 0; j--) grouped[j + 1] = grouped[j] as number;
        grouped[j + 1] = k;
      }
    }
  }

  // Filled by checkExactlyOnce. `counted[k]`: receive k is the one consumption of its WQE (the
  // first record of that wr_id); per slot, the earliest successful receive.
  const counted = new Uint8Array(R);
  const slotMinDr = new Float64Array(S).fill(Infinity);
  const slotMinDrRecv = new Int32Array(S).fill(-1);
  const postOfRecv = (k: number) => slotPost[recvSlot[k] as number] as number;
  return { params, rec, n, found, f, posts, recvs, resizes, arms, events, slotPost, S, slotFirst, R, recvSlot, recvPos, slotStart, grouped, counted, slotMinDr, slotMinDrRecv, postOfRecv };
}
type Indexed = ReturnType<typeof indexHistory>;

// ---- exactly-once (VFresh, VRepet), and per slot the earliest successful receive -----------
function checkExactlyOnce(x: Indexed): void {
  const { found, recvs, slotPost, S, recvPos, slotStart, grouped, counted, slotMinDr, slotMinDrRecv } = x;
  const { inv, resp, fa, fb } = x.f;
  for (let s = 0; s < S; s++) {
    const p = slotPost[s] as number;
    let prevPos = -1;
    let prevK = -1;
    for (let g = slotStart[s] as number; g < (slotStart[s + 1] as number); g++) {
      const k = grouped[g] as number;
      const r = recvs[k] as number;
      if (recvPos[k] === prevPos) {
        const first = recvs[prevK] as number;
        found.add(C.once, 'duplicated', () => ({
          message: `wr_id ${fa(r)} (posted by record ${p}) was received twice: by records ${first} and ${r}`,
          witness: [p, first, r],
        }));
        continue;
      }
      prevPos = recvPos[k] as number;
      prevK = k;
      counted[k] = 1;
      if (resp(r) < inv(p)) {
        found.add(C.once, 'received-before-posted', () => ({
          message: `wr_id ${fa(r)} was received by record ${r} (done at ${ns(resp(r))}) before record ${p} began to post it (${ns(inv(p))})`,
          witness: [p, r],
        }));
      }
      if (fb(r) === 0 && resp(r) < (slotMinDr[s] as number)) {
        slotMinDr[s] = resp(r);
        slotMinDrRecv[s] = k;
      }
    }
  }
}

// ---- lands-in-own-sges ---------------------------------------------------------------------
function checkPlacement(x: Indexed): void {
  const { found, recvs, slotPost, R, recvSlot } = x;
  const { fa, fb, fd } = x.f;
  for (let k = 0; k < R; k++) {
    const r = recvs[k] as number;
    const placed = fd(r);
    if (placed !== Placement.BAD_LENGTH && placed !== Placement.ELSEWHERE) continue;
    const s = recvSlot[k] as number;
    const p = s >= 0 ? (slotPost[s] as number) : -1;
    const posted = p >= 0 ? ` (posted by record ${p})` : '';
    found.add(C.placement, placed === Placement.ELSEWHERE ? 'misplaced' : 'bad-length', () => ({
      message:
        placed === Placement.ELSEWHERE
          ? `record ${r} completed wr_id ${fa(r)}${posted} with the SEND's length, but the SEND's payload is not in that WR's buffer: it landed in other SGEs (e.g. those of the WQE that held the slot before)`
          : `record ${r} completed wr_id ${fa(r)}${posted} ${fb(r) === 0 ? 'with a byte_len other than the SEND\'s payload' : `with status ${fb(r)}`}, though the WR's SGEs hold the payload: the receive did not use that WR's SGEs`,
      witness: p >= 0 ? [p, r] : [r],
    }));
  }
}

// ---- fifo (VOrd) ---------------------------------------------------------------------------
function checkFifo(x: Indexed): void {
  const { found, recvs, slotPost, S, recvPos, slotStart, grouped, counted, slotMinDr, slotMinDrRecv, postOfRecv } = x;
  const { inv, resp, fa, fb, fd } = x.f;
  // For each WQE x: of the successfully received WQEs y enqueued after x (their post invoked
  // after x's responded, or later in x's own list), the one whose receive responded first. If it
  // responded before x's receive was invoked, or x was never received, x was overtaken or lost.
  const slotsByInvoke = argsort(
    Int32Array.from({ length: S }, (_, s) => s),
    (s) => inv(slotPost[s] as number),
  );
  const sortedInvokes = Float64Array.from(slotsByInvoke, (s) => inv(slotPost[s] as number));
  const sufMin = new Float64Array(S + 1).fill(Infinity);
  const sufArg = new Int32Array(S + 1).fill(-1);
  for (let i = S - 1; i >= 0; i--) {
    const s = slotsByInvoke[i] as number;
    const take = (slotMinDr[s] as number) < (sufMin[i + 1] as number);
    sufMin[i] = take ? (slotMinDr[s] as number) : (sufMin[i + 1] as number);
    sufArg[i] = take ? (slotMinDrRecv[s] as number) : (sufArg[i + 1] as number);
  }
  for (let s = 0; s < S; s++) {
    const p = slotPost[s] as number;
    const at = upperBound(sortedInvokes, S, resp(p));
    const crossMin = sufMin[at] as number;
    const crossArg = sufArg[at] as number;
    const lo = slotStart[s] as number;
    const hi = slotStart[s + 1] as number;
    // Walk the list backwards, keeping the earliest successful receive later in the list.
    let withinMin = Infinity;
    let withinArg = -1;
    let received = 0;
    let lastSuccessPos = -1;
    let lastSuccessK = -1;
    for (let g = hi - 1; g >= lo; g--) {
      const k = grouped[g] as number;
      if (!counted[k]) continue;
      received++;
      const r = recvs[k] as number;
      const best = crossMin <= withinMin ? crossMin : withinMin;
      if (best < inv(r)) {
        const bestK = crossMin <= withinMin ? crossArg : withinArg;
        const y = recvs[bestK] as number;
        const yPost = postOfRecv(bestK);
        found.add(C.fifo, 'reordered', () => ({
          message:
            `wr_id ${fa(r)} (posted by record ${p}) was enqueued before wr_id ${fa(y)} (record ${yPost}), ` +
            `but wr_id ${fa(y)} was received first: record ${y} done at ${ns(resp(y))}, record ${r} begun at ${ns(inv(r))}`,
          witness: [p, yPost, y, r],
        }));
      }
      if (fb(r) === 0) {
        if (lastSuccessK < 0) {
          lastSuccessPos = recvPos[k] as number;
          lastSuccessK = k;
        }
        if (resp(r) < withinMin) {
          withinMin = resp(r);
          withinArg = k;
        }
      }
    }
    const unreceived = fd(p) - received;
    if (unreceived === 0) continue;
    // Lost: never received though a WQE enqueued after it was (in a later post, or later in this list).
    let lost = 0;
    let yK = -1;
    if (crossArg >= 0) {
      lost = unreceived;
      yK = crossArg;
    } else if (lastSuccessPos > 0) {
      let below = 0;
      for (let g = lo; g < hi; g++) if (counted[grouped[g] as number] && (recvPos[grouped[g] as number] as number) < lastSuccessPos) below++;
      lost = lastSuccessPos - below;
      yK = lastSuccessK;
    }
    if (lost === 0) continue;
    const lowest = lowestUnreceived(x, lo, hi);
    const y = recvs[yK] as number;
    const yPost = postOfRecv(yK);
    found.add(
      C.fifo,
      'lost',
      () => ({
        message:
          `${lost === 1 ? 'wr_id' : `${lost} WQEs, the first wr_id`} ${fa(p) + lowest} (posted by record ${p}) never received, ` +
          `though wr_id ${fa(y)}, enqueued after it (record ${yPost}), was received by record ${y}`,
        witness: [p, yPost, y],
      }),
      lost,
    );
  }
}

/** The lowest list position of a post (its receives in grouped[lo..hi)) that no counted receive took. */
function lowestUnreceived(x: Indexed, lo: number, hi: number): number {
  const { grouped, counted, recvPos } = x;
  let want = 0;
  for (let g = lo; g < hi; g++) {
    const k = grouped[g] as number;
    if (!counted[k]) continue;
    if (recvPos[k] !== want) return want;
    want++;
  }
  return want;
}

// ---- the occupancy bounds over sorted time points -------------------------------------------
/** The instants of the history (every invoke and response of the posts, the counted receives and the successful resizes), sorted, without repeats. */
function timeGrid(x: Indexed, okResizes: readonly number[]) {
  const { posts, recvs, R, counted } = x;
  const { inv, resp } = x.f;
  const gridAll = new Float64Array(2 * (posts.length + R + okResizes.length));
  {
    let t = 0;
    const add = (i: number) => {
      gridAll[t++] = inv(i);
      gridAll[t++] = resp(i);
    };
    posts.forEach(add);
    for (let k = 0; k < R; k++) if (counted[k]) add(recvs[k] as number);
    okResizes.forEach(add);
    gridAll.subarray(0, t).sort();
    gridAll.fill(Infinity, t);
  }
  let E = 0;
  for (let i = 0; i < gridAll.length && gridAll[i] !== Infinity; i++) if (i === 0 || gridAll[i] !== gridAll[i - 1]) gridAll[E++] = gridAll[i] as number;
  const grid = gridAll.subarray(0, E);
  const gi = indexer(grid, E);
  return { grid, E, gi };
}

/** The SRQ's occupancy bounds at each instant of the grid. */
function occupancyBounds(x: Indexed, { E, gi }: ReturnType<typeof timeGrid>) {
  const { posts, recvs, R, counted, postOfRecv } = x;
  const { inv, resp, fd } = x.f;
  // U[g]: the most WQEs the SRQ can hold at grid[g] (ups at <= t, downs at < t): a post
  // invoked at t may already have placed its WRs, a receive done at t may not yet have taken its.
  // L[g]: the fewest it holds just after grid[g]; Lat[g]: the fewest at grid[g] itself.
  const U = new Float64Array(E);
  const L = new Float64Array(E);
  const Lat = new Float64Array(E);
  const downDone = new Float64Array(E);
  for (const p of posts) {
    const w = fd(p);
    if (w === 0) continue;
    U[gi(inv(p))]! += w;
    Lat[gi(resp(p))]! += w;
  }
  for (let k = 0; k < R; k++) {
    if (!counted[k]) continue;
    const r = recvs[k] as number;
    L[gi(inv(r))]! += 1;
    // No WQE leaves before its post began: a receive "done" earlier (exactly-once reports it)
    // must not make the SRQ look emptier than it can be.
    downDone[gi(Math.max(resp(r), inv(postOfRecv(k))))]! += 1;
  }
  {
    let upInvoked = 0;
    let upDone = 0;
    let downInvoked = 0;
    let downFinished = 0;
    for (let g = 0; g < E; g++) {
      const ui = U[g] as number;
      const ud = Lat[g] as number;
      const di = L[g] as number;
      upInvoked += ui;
      downInvoked += di;
      U[g] = upInvoked - downFinished;
      Lat[g] = upDone - downInvoked;
      upDone += ud;
      L[g] = upDone - downInvoked;
      downFinished += downDone[g] as number;
    }
  }
  return { U, L, Lat };
}

/** The least and greatest max_wr that may be in force at each instant, as steps over the grid. */
function capacitySteps(x: Indexed, okResizes: readonly number[], { grid, E }: ReturnType<typeof timeGrid>) {
  const { params } = x;
  const { inv, resp, fa } = x.f;
  // The max_wr possibly in force: the initial one until some resize certainly finished, then
  // that of any successful resize begun by t and not certainly replaced by one begun after it
  // finished and finished itself before t. Its least value at grid points (for ENOMEM) and its
  // greatest just after them (for the exact capacity), as steps: they change only where a
  // resize begins or ends.
  const capMin = { start: [0], value: [params.max_wr] };
  const capMax = { start: [0], value: [params.max_wr] };
  if (okResizes.length > 0) {
    const zInv = argsort(okResizes, inv);
    const zResp = argsort(okResizes, resp);
    let m = -Infinity; // the latest invoke of a resize certainly finished
    const alive = (z: number) => resp(z) >= m;
    const lowest = heap((x, y) => fa(x) < fa(y));
    const highest = heap((x, y) => fa(x) > fa(y));
    const clean = (hp: ReturnType<typeof heap>) => {
      while (hp.size > 0 && !alive(hp.top())) hp.pop();
    };
    const step = (steps: { start: number[]; value: number[] }, g: number, value: number) => {
      if (steps.value[steps.value.length - 1] === value) return;
      if (steps.start[steps.start.length - 1] === g) steps.value[steps.value.length - 1] = value;
      else {
        steps.start.push(g);
        steps.value.push(value);
      }
    };
    let a = 0;
    let b = 0;
    for (let g = 0; g < E; g++) {
      const t = grid[g] as number;
      const begins = a < zInv.length && inv(zInv[a] as number) <= t;
      const ends = b < zResp.length && resp(zResp[b] as number) <= t;
      if (!begins && !ends) continue;
      for (; a < zInv.length && inv(zInv[a] as number) <= t; a++) {
        lowest.push(zInv[a] as number);
        highest.push(zInv[a] as number);
      }
      for (; b < zResp.length && resp(zResp[b] as number) < t; b++) m = Math.max(m, inv(zResp[b] as number));
      clean(lowest);
      step(capMin, g, Math.min(m === -Infinity ? params.max_wr : Infinity, lowest.size > 0 ? fa(lowest.top()) : Infinity));
      for (; b < zResp.length && resp(zResp[b] as number) <= t; b++) m = Math.max(m, inv(zResp[b] as number));
      clean(highest);
      step(capMax, g, Math.max(m === -Infinity ? params.max_wr : -Infinity, highest.size > 0 ? fa(highest.top()) : -Infinity));
      // The point value at g+1 may differ from g's once resizes ending at g count as finished.
      if (g + 1 < E) {
        clean(lowest);
        step(capMin, g + 1, Math.min(m === -Infinity ? params.max_wr : Infinity, lowest.size > 0 ? fa(lowest.top()) : Infinity));
      }
    }
  }
  return { capMin, capMax };
}

/** The grid of instants, the occupancy bounds over it and the max_wr in force: what the capacity and limit clauses read. Each part a function, for V8 to compile apart. */
function occupancy(x: Indexed) {
  const okResizes = x.resizes.filter((z) => x.f.fb(z) === 0);
  const times = timeGrid(x, okResizes);
  return { okResizes, ...times, ...occupancyBounds(x, times), ...capacitySteps(x, okResizes, times), maxU: undefined as ((lo: number, hi: number) => number) | undefined };
}

type Occupancy = ReturnType<typeof occupancy>;

/** The steps' index holding grid point g. */
function stepAt(steps: { start: number[] }, g: number): number {
  let lo = 0;
  let hi = steps.start.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if ((steps.start[mid] as number) <= g) lo = mid;
    else hi = mid;
  }
  return lo;
}
const capMinAt = (o: Occupancy, g: number) => o.capMin.value[stepAt(o.capMin, g)] as number;
const resizesBy = (x: Indexed, o: Occupancy, t: number) => o.okResizes.filter((z) => x.f.inv(z) <= t);
/** The most WQEs the SRQ may hold over grid points [lo, hi] (its tree built at the first question). */
const maxUOver = (o: Occupancy, lo: number, hi: number) => (o.maxU ??= rangeMax(o.U, o.E))(lo, hi);
/**
 * A slot's post with the receives of its WRs done by t (inclusive): taken into a witness
 * together, so that alone the SRQ holds no more of that post's WQEs up to t than it did.
 */
function postWithReceives(x: Indexed, s: number, t: number): number[] {
  const { slotPost, slotStart, grouped, counted, recvs } = x;
  const out = [slotPost[s] as number];
  for (let g = slotStart[s] as number; g < (slotStart[s + 1] as number); g++) {
    const k = grouped[g] as number;
    if (counted[k] && x.f.resp(recvs[k] as number) <= t) out.push(recvs[k] as number);
  }
  return out;
}

// ---- enomem-when-full ----------------------------------------------------------------------
function checkEnomem(x: Indexed, o: Occupancy): void {
  const { found, posts, slotPost, S, slotFirst } = x;
  const { inv, resp, fa, fb, fc, fd } = x.f;
  const { E, gi, U, capMin } = o;
  // A refusal is right only if, at some instant of the post, the SRQ may have held max_wr.
  {
    /** Whether for some grid point in [lo, hi] the SRQ may have held the least max_wr in force there. */
    const mayBeFull = (lo: number, hi: number) => {
      for (let i = stepAt(capMin, lo); i < capMin.start.length && (capMin.start[i] as number) <= hi; i++) {
        const from = Math.max(lo, capMin.start[i] as number);
        const to = Math.min(hi, (capMin.start[i + 1] ?? E) - 1);
        if (maxUOver(o, from, to) >= (capMin.value[i] as number)) return true;
      }
      return false;
    };
    for (const p of posts) {
      if (fc(p) !== ENOMEM) continue;
      const lo = gi(inv(p));
      const hi = gi(resp(p));
      const full = mayBeFull(lo, hi);
      if (full) continue;
      found.add(C.enomem, 'not-full', () => {
        let most = 0;
        let cap = Infinity;
        for (let g = lo; g <= hi; g++) {
          most = Math.max(most, U[g] as number);
          cap = Math.min(cap, capMinAt(o, g));
        }
        const s = upperBound(slotFirst, S, fa(p)) - 1;
        const own = s >= 0 && slotPost[s] === p ? postWithReceives(x, s, resp(p)) : [p];
        return {
          message:
            `record ${p} was refused with ENOMEM at wr_id ${fa(p) + fd(p)} (${fd(p)} of ${fb(p)} accepted), but during it ` +
            `[${ns(inv(p))}, ${ns(resp(p))}] the SRQ held at most ${most} WQEs, below max_wr (at least ${cap})`,
          witness: [...own, ...resizesBy(x, o, resp(p))],
        };
      });
    }
  }
}

// ---- capacity-exact ------------------------------------------------------------------------
/** Only under the exact capacity (rdmavt): a ring that may round up holds more than max_wr rightly. */
function checkCapacity(x: Indexed, o: Occupancy): void {
  const { found } = x;
  const { inv, resp, fa } = x.f;
  const { okResizes, grid, E, gi, L, Lat, capMax } = o;
  let over = false;
  let i = 0;
  for (let g = 0; g < E; g++) {
    if (i + 1 < capMax.start.length && (capMax.start[i + 1] as number) <= g) i++;
    const cap = capMax.value[i] as number;
    const now = (L[g] as number) > cap;
    if (now && !over) {
      const t = grid[g] as number;
      const held = L[g] as number;
      found.add(C.capacity, 'over-max_wr', () => ({
        message: `just after ${ns(t)} the SRQ certainly held ${held} WQEs, more than max_wr (${cap} at most)`,
        witness: [...fullestPosts(x, t, cap), ...resizesBy(x, o, t)],
      }));
    }
    over = now;
  }
  // rdmavt refuses (EINVAL) a resize below the WQEs it holds.
  const negLat = okResizes.length > 0 ? rangeMax(Lat.map((x) => -x), E) : undefined;
  for (const z of okResizes) {
    const fewest = -(negLat as (lo: number, hi: number) => number)(gi(inv(z)), gi(resp(z)));
    if (fewest <= fa(z)) continue;
    found.add(C.capacity, 'resize-below-count', () => ({
      message: `record ${z} resized the SRQ to max_wr ${fa(z)} and succeeded, while it certainly held at least ${fewest} WQEs throughout`,
      witness: [z, ...inFlight(x, inv(z), resp(z)), ...resizesBy(x, o, resp(z)).filter((x) => x !== z)],
    }));
  }
}

/** Posts with the most WQEs certainly still queued just after t, enough to pass cap. */
function fullestPosts(x: Indexed, t: number, cap: number): number[] {
  const { recvs, slotPost, S, slotStart, grouped, counted } = x;
  const { inv, resp, fd } = x.f;
  const held: [number, number][] = [];
  for (let s = 0; s < S; s++) {
    const p = slotPost[s] as number;
    if (resp(p) > t) continue;
    let left = fd(p);
    for (let g = slotStart[s] as number; g < (slotStart[s + 1] as number); g++) {
      const k = grouped[g] as number;
      if (counted[k] && inv(recvs[k] as number) <= t) left--;
    }
    if (left > 0) held.push([p, left]);
  }
  held.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  const out: number[] = [];
  let sum = 0;
  for (const [p, left] of held) {
    if (sum > cap) break;
    out.push(p);
    sum += left;
  }
  return out;
}

/**
 * Posts done before b that still count during [a, b] (not wholly taken before a), with their
 * WQEs' receives begun by b. `closed`: as L counts at the ends (a post done at b counts, a
 * receive begun at a is not yet before a), so a witness keeps L over [a, b] what it is.
 */
function inFlight(x: Indexed, a: number, b: number, closed = false): number[] {
  const { recvs, slotPost, S, slotStart, grouped, counted } = x;
  const { inv, resp, fd } = x.f;
  const out: number[] = [];
  for (let s = 0; s < S; s++) {
    const p = slotPost[s] as number;
    if (closed ? resp(p) > b : resp(p) >= b) continue;
    const taken: number[] = [];
    let takenBeforeA = 0;
    for (let g = slotStart[s] as number; g < (slotStart[s + 1] as number); g++) {
      const k = grouped[g] as number;
      const r = recvs[k] as number;
      if (!counted[k] || inv(r) > b) continue;
      taken.push(r);
      if (closed ? inv(r) < a : inv(r) <= a) takenBeforeA++;
    }
    if (resp(p) < a && takenBeforeA === fd(p)) continue;
    out.push(p, ...taken);
  }
  return out;
}


/** The armings, the initial one (at create) and each successful arm with srq_limit > 0, and the limit events by time. */
function armingsOf(x: Indexed) {
  const { inv, fa, fb } = x.f;
  const armings = argsort(
    x.arms.filter((a) => fb(a) === 0 && fa(a) > 0),
    inv,
  );
  return { armings, initiallyArmed: x.params.srq_limit > 0 ? 1 : 0, eventsByTime: argsort(x.events, inv) };
}
type Armings = ReturnType<typeof armingsOf>;

// ---- srq_limit: once-per-arm ---------------------------------------------------------------
function checkOncePerArm(x: Indexed, lim: Armings): void {
  const { rec, found } = x;
  const { inv } = x.f;
  const { armings, initiallyArmed, eventsByTime } = lim;
  // Each arming gives at most one event, read after the arming began.
  {
    let next = 0;
    let available = initiallyArmed;
    eventsByTime.forEach((e, i) => {
      for (; next < armings.length && inv(armings[next] as number) <= inv(e); next++) available++;
      if (available > 0) {
        available--;
        return;
      }
      found.add(C.oncePerArm, 'extra-event', () => {
        const witness = shortestExcess(x, lim, i, next);
        const evs = witness.filter((x) => rec[x * RECORD_WIDTH + F.kind] === RecordKind.LIMIT_EVENT).length;
        return {
          message:
            `the limit event read at ${ns(inv(e))} (record ${e}) has no arming of its own: ${evs} events from ` +
            `${evs - 1} arming${evs === 2 ? '' : 's'}${initiallyArmed ? ' (the one at create included)' : ''}`,
          witness,
        };
      });
    });
  }
}

/**
 * The shortest stretch of time ending at event i that holds more events than armings (the
 * initial arming counted, since a witness checked alone is armed at create too) and, to show
 * which arming the events were due to, the latest arming before it if there is one.
 */
function shortestExcess(x: Indexed, lim: Armings, i: number, armingsBefore: number): number[] {
  const { inv } = x.f;
  const { armings, initiallyArmed, eventsByTime } = lim;
  const out = [eventsByTime[i] as number];
  let ev = 1;
  let ar = 0;
  let e = i - 1;
  let a = armingsBefore - 1;
  while ((ev <= ar + initiallyArmed || (ar === 0 && a >= 0)) && (e >= 0 || a >= 0)) {
    const te = e >= 0 ? inv(eventsByTime[e] as number) : -Infinity;
    const ta = a >= 0 ? inv(armings[a] as number) : -Infinity;
    const t = Math.max(te, ta);
    for (; e >= 0 && inv(eventsByTime[e] as number) === t; e--, ev++) out.push(eventsByTime[e] as number);
    for (; a >= 0 && inv(armings[a] as number) === t; a--, ar++) out.push(armings[a] as number);
  }
  return out;
}

// ---- srq_limit: fires-below ----------------------------------------------------------------
function checkFiresBelow(x: Indexed, o: Occupancy, lim: Armings): void {
  const { params, found, recvs, arms, S, slotFirst, R, counted } = x;
  const { inv, resp, fa, fb } = x.f;
  const { gi } = o;
  const { armings, initiallyArmed, eventsByTime } = lim;
  // An arming certainly in force for a whole successful receive (the receive began after the
  // arm answered and ended before any other arm began) that certainly left fewer than srq_limit
  // WQEs must have raised an event, read after the arming began and by the history's end.
  if (initiallyArmed || armings.length > 0) {
    const armsByInvoke = argsort(arms, inv);
    const lastEvent = eventsByTime.length > 0 ? inv(eventsByTime[eventsByTime.length - 1] as number) : -Infinity;
    // The window of an arming: (its response, the invoke of the first other arm that may follow it).
    const windows: { arming: number; limit: number; from: number; to: number; since: number }[] = [];
    if (initiallyArmed) windows.push({ arming: -1, limit: params.srq_limit, from: -Infinity, to: armsByInvoke.length > 0 ? inv(armsByInvoke[0] as number) : Infinity, since: -Infinity });
    let latestResp = -Infinity;
    armsByInvoke.forEach((a, i) => {
      const overlapped = latestResp >= inv(a); // an earlier arm may take effect after this one
      latestResp = Math.max(latestResp, resp(a));
      if (fb(a) !== 0 || fa(a) === 0 || overlapped) return;
      const following = armsByInvoke[i + 1];
      windows.push({ arming: a, limit: fa(a), from: resp(a), to: following === undefined ? Infinity : inv(following), since: inv(a) });
    });
    // Only an arming with no event read after it needs its receives looked at.
    const unanswered = windows.filter((w) => !(eventsByTime.length > 0 && lastEvent >= w.since));
    const succ: number[] = [];
    if (unanswered.length > 0) for (let k = 0; k < R; k++) if (counted[k] && fb(recvs[k] as number) === 0) succ.push(recvs[k] as number);
    const succByInvoke = argsort(succ, inv);
    const succInvokes = Float64Array.from(succByInvoke, inv);
    for (const w of unanswered) {
      for (let j = upperBound(succInvokes, succInvokes.length, w.from); j < succInvokes.length && (succInvokes[j] as number) < w.to; j++) {
        const r = succByInvoke[j] as number;
        if (resp(r) >= w.to) continue;
        const most = maxUOver(o, gi(inv(r)), gi(resp(r))) - 1;
        if (most >= w.limit) continue;
        found.add(C.firesBelow, 'no-event', () => ({
          message:
            `after record ${r} took wr_id ${fa(r)} the SRQ held at most ${most} WQEs, below srq_limit ${w.limit} ` +
            `(${w.arming < 0 ? 'armed at create' : `armed by record ${w.arming}`}), but no limit event was read after`,
          witness: [...(w.arming < 0 ? [] : [w.arming]), ...postWithReceives(x, upperBound(slotFirst, S, fa(r)) - 1, resp(r))],
        }));
        break;
      }
    }
  }
}

// ---- srq_limit: not-above -----------------------------------------------------------------
function checkNotAbove(x: Indexed, o: Occupancy, lim: Armings): void {
  const { params, found, recvs, arms } = x;
  const { inv, resp, fa, fb } = x.f;
  const { grid, E, gi, L, Lat } = o;
  const { armings, initiallyArmed, eventsByTime } = lim;
  // An event is raised by a receive that left fewer WQEs than the limit of an arming in force,
  // after the arming began and before the event was read. One read when, since each arming that
  // began before it, the SRQ certainly held at least that arming's limit (L, the fewest it can
  // hold, never below it) could not have been raised. Conservative: L counts every receive begun
  // as done, and a receive's interval (send posted .. completion polled) is wide.
  if (eventsByTime.length > 0 && (initiallyArmed || armings.length > 0)) {
    const negL = rangeMax(L.map((x) => -x), E);
    /**
     * Whether the SRQ may have held fewer than the arming's limit somewhere in [since, te]: L just
     * after each grid point strictly inside, and at an end that is a grid point Lat (the fewest at
     * that instant: a post done then may take effect after a receive of the same instant).
     */
    const mayBeBelow = (w: { since: number; limit: number }, te: number) => {
      const g = gi(te);
      const hi = g - 1;
      const gs = w.since === -Infinity ? 0 : gi(w.since);
      const startsAt = w.since !== -Infinity && gs < E && grid[gs] === w.since;
      const lo = w.since === -Infinity ? 0 : startsAt ? gs : gs - 1;
      // Before the first grid point the SRQ is empty.
      if (lo < 0 || hi < 0) return true;
      const fewest: number[] = [];
      if (lo <= hi) fewest.push(-negL(lo, hi));
      if (g < E && grid[g] === te) fewest.push(Lat[g] as number);
      if (startsAt) fewest.push(Lat[gs] as number);
      return fewest.length === 0 || Math.min(...fewest) < w.limit;
    };
    const inForce = [
      ...(initiallyArmed ? [{ arming: -1, since: -Infinity, limit: params.srq_limit }] : []),
      ...Array.from(armings, (a) => ({ arming: a, since: inv(a), limit: fa(a) })),
    ];
    // For an event recorded inside the receive that raised it (history.ts: in_receive): the
    // successful receives by invoke with their running latest response, to find the earliest
    // invoke of a receive whose interval holds the event's time.
    const okRecvs = argsort(
      recvs.filter((r) => fb(r) === 0),
      inv,
    );
    const okInvokes = Float64Array.from(okRecvs, inv);
    const latestResp = new Float64Array(okRecvs.length);
    for (let j = 0, most = -Infinity; j < okRecvs.length; j++) latestResp[j] = most = Math.max(most, resp(okRecvs[j] as number));
    /** The earliest invoke of a successful receive in progress at t (invoke <= t <= response), or undefined. */
    const raisedFrom = (t: number): number | undefined => {
      const j = lowerBound(latestResp, latestResp.length, t);
      return j < okRecvs.length && (okInvokes[j] as number) <= t ? (okInvokes[j] as number) : undefined;
    };
    const okArms = arms.filter((a) => fb(a) === 0);
    for (const e of eventsByTime) {
      const te = inv(e);
      const before = inForce.filter((w) => w.since <= te);
      // An event with no arming before it is once-per-arm's to report.
      if (before.length === 0) continue;
      if (fa(e) === 1) {
        // Raised by the dequeue of a receive whose interval holds te, at an instant in [from, te]:
        // by an arming begun by te and not certainly replaced before `from` (an arm begun after it
        // answered and done before), while the SRQ may have held fewer than its limit.
        const from = raisedFrom(te);
        const replaced = (w: { arming: number }) =>
          from !== undefined && okArms.some((z) => z !== w.arming && (w.arming < 0 || inv(z) > resp(w.arming)) && resp(z) < from);
        if (from !== undefined && before.some((w) => !replaced(w) && mayBeBelow({ since: Math.max(w.since, from), limit: w.limit }, te))) continue;
        found.add(C.notAbove, 'unwarranted-event', () => {
          const spanning = okRecvs.filter((r) => inv(r) <= te && te <= resp(r));
          return {
            message:
              from === undefined
                ? `the limit event recorded at ${ns(te)} (record ${e}) inside the receive that raised it, but no receive was in progress then`
                : `the limit event recorded at ${ns(te)} (record ${e}) inside the receive that raised it could not have been raised: from ${ns(from)}, ` +
                  `when the first receive in progress then began, each arming still in force ` +
                  `(${before.filter((w) => !replaced(w)).map((w) => `srq_limit ${w.limit} ${w.arming < 0 ? 'at create' : `by record ${w.arming}`}`).join(', ') || 'none'}) ` +
                  'found the SRQ holding at least that many WQEs',
            witness: [...okArms.filter((z) => inv(z) <= te), ...spanning, ...(from === undefined ? [] : inFlight(x, from, te, true)), e],
          };
        });
        continue;
      }
      if (before.some((w) => mayBeBelow(w, te))) continue;
      const since = Math.min(...before.map((w) => w.since));
      found.add(C.notAbove, 'unwarranted-event', () => ({
        message:
          `the limit event read at ${ns(te)} (record ${e}) could not have been raised: since each arming before it ` +
          `(${before.map((w) => `srq_limit ${w.limit} ${w.arming < 0 ? 'at create' : `by record ${w.arming}`}`).join(', ')}) ` +
          'the SRQ certainly held at least that many WQEs',
        witness: [...before.flatMap((w) => (w.arming < 0 ? [] : [w.arming])), ...inFlight(x, since, te, true), e],
      }));
    }
  }
}

/** Every clause's check of one history, in the order they build on each other. */
function checkDecoded(params: ConcurrentHistory, h: DecodedHistory): CheckOutcome {
  const x = indexHistory(params, h);
  checkExactlyOnce(x);
  checkPlacement(x);
  checkFifo(x);
  const o = occupancy(x);
  checkEnomem(x, o);
  if (params.capacity === 'exact') checkCapacity(x, o);
  const lim = armingsOf(x);
  checkOncePerArm(x, lim);
  checkFiresBelow(x, o, lim);
  checkNotAbove(x, o, lim);
  return x.found.outcome(x.n);
}
