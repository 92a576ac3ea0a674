import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Placement } from '../../../adapters/concurrent.js';
import { type CheckOutcome, type ClauseId, REPORTED_PER_KIND, checkHistory } from '../../../suites/concurrent/checker.js';
import { type ConcurrentHistory, encodeOperations } from '../../../suites/concurrent/history.js';
import { linearizableBySearch } from '../../../suites/concurrent/wgl.js';

// ---- building histories by hand ----------------------------------------------------------------

type Rec = number[];
const post = (invoke: number, response: number, first: number, count: number, o: { errno?: number; accepted?: number; actor?: number } = {}): Rec => [
  o.actor ?? 0, 0, invoke, response, first, count, o.errno ?? 0, o.accepted ?? (o.errno ? 0 : count),
];
const recv = (invoke: number, response: number, wr_id: number, o: { status?: number; consumer?: number; placed?: number } = {}): Rec => [
  10 + (o.consumer ?? 0), 1, invoke, response, wr_id, o.status ?? 0, o.consumer ?? 0, o.placed ?? 0,
];
const resize = (invoke: number, response: number, max_wr: number, errno = 0): Rec => [20, 2, invoke, response, max_wr, errno, 0, 0];
const arm = (invoke: number, response: number, srq_limit: number, errno = 0): Rec => [21, 3, invoke, response, srq_limit, errno, 0, 0];
const event = (t: number, inReceive = 0): Rec => [22, 4, t, t, inReceive, 0, 0, 0];
/** A limit event recorded inside the receive that raised it (rvtc on rdmavt and rxe). */
const eventIn = (t: number): Rec => event(t, 1);

type Params = Omit<ConcurrentHistory, 'records'>;
const DEFAULTS: Params = { max_wr: 8, srq_limit: 0, capacity: 'exact' };
const history = (params: Partial<Params>, ...ops: Rec[]): ConcurrentHistory => ({ ...DEFAULTS, ...params, records: ops.flat() });

const clauses = (o: CheckOutcome) => [...new Set(o.violations.map((v) => v.clause))];

/** One violation of `clause`/`kind` and nothing else; its witness is small and fails alone, for the checker and for the search. */
function expectOnly(h: ConcurrentHistory, clause: ClauseId, kind: string, maxWitness: number) {
  const outcome = checkHistory(h);
  expect(outcome.linearizable).toBe(false);
  expect(outcome.violations.map((v) => [v.clause, v.kind])).toEqual([[clause, kind]]);
  const [v] = outcome.violations;
  expect(v?.witness.length).toBeLessThanOrEqual(maxWitness);
  const alone = { ...h, records: encodeOperations(v?.witness ?? []) };
  expect(checkHistory(alone).violations.map((w) => w.clause)).toContain(clause);
  expect(linearizableBySearch(alone)).toBe(false);
  expect(linearizableBySearch(h)).toBe(false);
  return v;
}

function expectLinearizable(h: ConcurrentHistory) {
  expect(checkHistory(h)).toMatchObject({ linearizable: true, violations: [], counts: [] });
  expect(linearizableBySearch(h)).toBe(true);
}

// ---- hand-written histories --------------------------------------------------------------------

describe('checkHistory: correct histories pass', () => {
  it('an empty history, and posts never received', () => {
    expectLinearizable(history({}));
    expectLinearizable(history({}, post(0, 5, 1, 3), post(6, 9, 10, 2)));
  });

  it('overlapping posts may be received in either order', () => {
    expectLinearizable(history({}, post(0, 10, 1, 1, { actor: 0 }), post(5, 15, 2, 1, { actor: 1 }), recv(16, 17, 2), recv(18, 19, 1)));
  });

  it('a list is received in list order; concurrent receives may complete out of order across consumers', () => {
    expectLinearizable(
      history({}, post(0, 1, 1, 4), recv(2, 10, 1, { consumer: 0 }), recv(3, 5, 2, { consumer: 1 }), recv(4, 6, 3, { consumer: 1 }), recv(9, 12, 4, { consumer: 0 })),
    );
  });

  it('an ENOMEM while the SRQ is full, the rest posted again once there is room', () => {
    expectLinearizable(
      history({ max_wr: 2 }, post(0, 1, 1, 3, { errno: 12, accepted: 2 }), recv(2, 3, 1), post(4, 5, 3, 1), recv(6, 7, 2), recv(8, 9, 3)),
    );
  });

  it('an ENOMEM that overlaps a receive may have come first', () => {
    expectLinearizable(history({ max_wr: 1 }, post(0, 1, 1, 1), recv(2, 10, 1), post(3, 4, 2, 1, { errno: 12 })));
  });

  it('a resize in flight: the WRs beyond the old max_wr fit under the new one', () => {
    expectLinearizable(
      history({ max_wr: 2 }, post(0, 1, 1, 2), resize(2, 10, 4), post(3, 4, 3, 2), recv(11, 12, 1), recv(13, 14, 2), recv(15, 16, 3), recv(17, 18, 4)),
    );
  });

  it('a failed resize changes nothing; a failed receive of a posted wr_id is its consumption', () => {
    expectLinearizable(history({ max_wr: 2 }, post(0, 1, 1, 2), resize(2, 3, 1, 22), recv(4, 5, 2, { status: 5 }), recv(6, 7, 1)));
  });

  it('capacity at-least: rxe may hold more than max_wr', () => {
    expectLinearizable(history({ max_wr: 2, capacity: 'at-least' }, post(0, 1, 1, 3), recv(2, 3, 1)));
  });

  it('an arm and its event; the limit armed at create and its event', () => {
    expectLinearizable(history({}, post(0, 1, 1, 3), arm(2, 3, 2), recv(4, 5, 1), recv(6, 7, 2), event(8), recv(9, 10, 3)));
    expectLinearizable(history({ srq_limit: 1 }, post(0, 1, 1, 1), recv(2, 3, 1), event(4)));
  });

  it('an event read while the receive that raised it had not yet answered', () => {
    expectLinearizable(history({ srq_limit: 1 }, post(0, 1, 1, 1), recv(2, 10, 1), event(5)));
  });
});

describe('checkHistory: a history checked again (a mutation run checks the reference\'s histories once per mutant)', () => {
  it('gives the outcome of that history: one record or one parameter changed is checked anew', () => {
    const lost = history({}, post(0, 1, 1, 1), post(2, 3, 2, 1), recv(4, 5, 2));
    const fixed = history({}, post(0, 1, 1, 1), post(2, 3, 2, 1), recv(4, 5, 1));
    for (let round = 0; round < 2; round++) {
      expect(clauses(checkHistory(lost))).toEqual(['post_srq_recv.concurrent.fifo']);
      expect(checkHistory(fixed).linearizable).toBe(true);
    }
    const overfull = (max_wr: number) => history({ max_wr }, post(0, 1, 1, 3));
    expect(checkHistory(overfull(2)).linearizable).toBe(false);
    expect(checkHistory(overfull(3)).linearizable).toBe(true);
    expect(checkHistory({ ...overfull(2), capacity: 'at-least' }).linearizable).toBe(true);
    // armed at create: the receive leaves 0 < 2 WQEs and no event came; not armed, nothing was due
    const drained = (srq_limit: number) => history({ srq_limit }, post(0, 1, 1, 1), recv(2, 3, 1));
    expect(clauses(checkHistory(drained(2)))).toEqual(['srq_limit.concurrent.fires-below']);
    expect(checkHistory(drained(0)).linearizable).toBe(true);
  });

  it('keeps its own copy of the records: a Float64Array changed in place after a check is checked anew', () => {
    // wr_ids no other test checks, so that this history is not kept already
    const buffer = Float64Array.from([post(0, 1, 301, 1), post(2, 3, 302, 1), recv(4, 5, 301)].flat());
    expect(checkHistory({ ...DEFAULTS, records: buffer }).linearizable).toBe(true);
    buffer[2 * 8 + 4] = 302; // the receive now takes wr_id 302: 301 is lost behind it
    expect(clauses(checkHistory({ ...DEFAULTS, records: buffer }))).toEqual(['post_srq_recv.concurrent.fifo']);
    // and numbers in an array, which the check keeps as its own Float64Array
    const numbers = [post(0, 1, 311, 1), post(2, 3, 312, 1), recv(4, 5, 311)].flat();
    expect(checkHistory({ ...DEFAULTS, records: numbers }).linearizable).toBe(true);
    numbers[2 * 8 + 4] = 312;
    expect(clauses(checkHistory({ ...DEFAULTS, records: numbers }))).toEqual(['post_srq_recv.concurrent.fifo']);
  });

  it('gives each caller its own copy: changing one outcome, the first or a kept one, changes no later one', () => {
    // wr_ids no other test checks: the first check computes, the next ones find it kept
    const lost = history({}, post(0, 1, 401, 1), post(2, 3, 402, 1), recv(4, 5, 402));
    const spoil = (outcome: CheckOutcome) => {
      expect(outcome.linearizable).toBe(false);
      expect(clauses(outcome)).toEqual(['post_srq_recv.concurrent.fifo']);
      outcome.violations.length = 0;
      outcome.linearizable = true;
    };
    for (let round = 0; round < 3; round++) spoil(checkHistory(lost));
  });
});

describe('checkHistory: each violation, with a small witness', () => {
  it('exactly-once: invented, duplicated, received before posted, a failed receive of nothing', () => {
    expectOnly(history({}, post(0, 1, 1, 1), recv(2, 3, 1), recv(4, 5, 99)), 'post_srq_recv.concurrent.exactly-once', 'invented', 1);
    expectOnly(history({}, post(0, 1, 1, 1), recv(2, 3, 1), recv(4, 5, 1)), 'post_srq_recv.concurrent.exactly-once', 'duplicated', 3);
    expectOnly(history({}, recv(0, 5, 1), post(10, 20, 1, 1)), 'post_srq_recv.concurrent.exactly-once', 'received-before-posted', 2);
    expectOnly(history({}, recv(0, 5, 77, { status: 5 })), 'post_srq_recv.concurrent.exactly-once', 'receive-failed', 1);
  });

  it('a refused WR is not posted: receiving it is an invention', () => {
    expectOnly(history({ max_wr: 1 }, post(0, 1, 1, 2, { errno: 12, accepted: 1 }), recv(2, 3, 1), recv(4, 5, 2)), 'post_srq_recv.concurrent.exactly-once', 'invented', 1);
  });

  it('fifo: a WQE lost behind a later one, across posts and within a list', () => {
    const v = expectOnly(history({}, post(0, 1, 1, 1), post(2, 3, 2, 1), recv(4, 5, 2)), 'post_srq_recv.concurrent.fifo', 'lost', 3);
    expect(v?.witness.map((o) => o.kind)).toEqual(['post', 'post', 'recv']);
    expectOnly(history({}, post(0, 1, 1, 3), recv(2, 3, 1), recv(4, 5, 3)), 'post_srq_recv.concurrent.fifo', 'lost', 2);
  });

  it('fifo: reordered, across posts, within a list and across a resize', () => {
    expectOnly(history({}, post(0, 1, 1, 1), post(2, 3, 2, 1), recv(4, 5, 2), recv(6, 7, 1)), 'post_srq_recv.concurrent.fifo', 'reordered', 4);
    expectOnly(history({}, post(0, 1, 1, 2), recv(2, 3, 2), recv(4, 5, 1)), 'post_srq_recv.concurrent.fifo', 'reordered', 3);
    expectOnly(
      history({ max_wr: 2 }, post(0, 1, 1, 1), resize(2, 3, 4), post(4, 5, 2, 1), recv(6, 7, 2), recv(8, 9, 1)),
      'post_srq_recv.concurrent.fifo',
      'reordered',
      4,
    );
  });

  it('a failed receive has no FIFO duty, but a later WQE received first still needs it gone', () => {
    expectLinearizable(history({}, post(0, 1, 1, 2), recv(2, 3, 2, { status: 5 }), recv(4, 5, 1)));
    expectOnly(history({}, post(0, 1, 1, 2), recv(2, 3, 2), recv(4, 5, 1, { status: 5 })), 'post_srq_recv.concurrent.fifo', 'reordered', 3);
  });

  it('enomem-when-full: refused while the SRQ held fewer than max_wr', () => {
    expectOnly(history({ max_wr: 4 }, post(0, 1, 1, 1), post(2, 3, 2, 2, { errno: 12 })), 'post_srq_recv.concurrent.enomem-when-full', 'not-full', 2);
    // Full under the old max_wr, but a resize that certainly finished raised it.
    expectOnly(
      history({ max_wr: 1, capacity: 'at-least' }, post(0, 1, 1, 1), resize(2, 3, 4), post(4, 5, 2, 1, { errno: 12 })),
      'post_srq_recv.concurrent.enomem-when-full',
      'not-full',
      3,
    );
  });

  it('capacity-exact: more WQEs than max_wr, and a resize below the count that succeeded', () => {
    expectOnly(history({ max_wr: 2 }, post(0, 1, 1, 3)), 'post_srq_recv.concurrent.capacity-exact', 'over-max_wr', 1);
    expect(checkHistory(history({ max_wr: 2, capacity: 'at-least' }, post(0, 1, 1, 3))).linearizable).toBe(true);
    // Such a resize also leaves more WQEs than the new max_wr: both are reported, each witness fails alone.
    const h = history({ max_wr: 4 }, post(0, 1, 1, 3), resize(2, 3, 1));
    const outcome = checkHistory(h);
    expect(outcome.violations.map((v) => v.kind)).toEqual(['over-max_wr', 'resize-below-count']);
    for (const v of outcome.violations) {
      expect(v.witness.map((o) => o.kind)).toEqual(['post', 'resize']);
      expect(linearizableBySearch({ ...h, records: encodeOperations(v.witness) })).toBe(false);
    }
  });

  it('once-per-arm: two events from one arming, an event with none', () => {
    const v = expectOnly(
      history({}, post(0, 1, 1, 3), arm(2, 3, 2), recv(4, 5, 1), recv(6, 7, 2), event(8), event(9)),
      'srq_limit.concurrent.once-per-arm',
      'extra-event',
      3,
    );
    expect(v?.witness.map((o) => o.kind)).toEqual(['arm', 'limit_event', 'limit_event']);
    expectOnly(history({}, post(0, 1, 1, 1), recv(2, 3, 1), event(4)), 'srq_limit.concurrent.once-per-arm', 'extra-event', 1);
  });

  it('fires-below: the SRQ certainly fell below the limit and no event came', () => {
    expectOnly(history({ srq_limit: 2 }, post(0, 1, 1, 1), recv(2, 3, 1)), 'srq_limit.concurrent.fires-below', 'no-event', 2);
    const v = expectOnly(history({}, post(0, 1, 1, 2), arm(2, 3, 2), recv(4, 5, 1)), 'srq_limit.concurrent.fires-below', 'no-event', 3);
    expect(v?.message).toContain('armed by record 1');
  });

  it('not-above: an event while the SRQ certainly held at least the limit', () => {
    const v = expectOnly(history({}, post(0, 1, 1, 8), arm(2, 3, 2), recv(4, 5, 1), event(6)), 'srq_limit.concurrent.not-above', 'unwarranted-event', 4);
    expect(v?.message).toContain('srq_limit 2 by record 1');
  });

  it('not-above at the instant the event is read: a post done then may come after the receive that raised it', () => {
    // From the soundness property (seed -1008328305): at te the SRQ holds what was done before te.
    const h = history({}, post(0, 1, 1, 1), arm(2, 3, 1), post(4, 6, 2, 1), recv(6, 7, 1), event(6));
    expect(checkHistory(h).linearizable).toBe(true);
    expect(linearizableBySearch(h)).toBe(true);
  });

  it('not-above is conservative: receives in flight may have drained the SRQ before the event was read', () => {
    const h = history({}, post(0, 1, 1, 2), arm(2, 3, 1), recv(4, 20, 1), recv(5, 21, 2), event(10));
    expect(checkHistory(h).linearizable).toBe(true);
  });

  it('not-above, an event recorded inside its receive: only the receives in progress then can have raised it', () => {
    // Read later, the event may be the one the receive that left 0 (record 2) raised; recorded
    // inside a receive, it was raised by the only one in progress at 12, which left 7 with the
    // limit at 1 (the second arm replaced the first before that receive began).
    const ops = [post(0, 1, 1, 1), arm(2, 3, 1), recv(4, 5, 1), arm(6, 7, 1), post(8, 9, 2, 8), recv(10, 14, 2)];
    const later = history({}, ...ops, event(12));
    expect(checkHistory(later).linearizable).toBe(true);
    expect(linearizableBySearch(later)).toBe(true);
    const v = expectOnly(history({}, ...ops, eventIn(12)), 'srq_limit.concurrent.not-above', 'unwarranted-event', 5);
    expect(v?.message).toContain('inside the receive that raised it');
    // Recorded inside the receive that left the SRQ below the limit: warranted.
    expectLinearizable(history({}, post(0, 1, 1, 1), arm(2, 3, 1), recv(4, 8, 1), eventIn(6)));
    // No receive in progress at all.
    expectOnly(history({}, post(0, 1, 1, 8), arm(2, 3, 2), recv(4, 5, 1), eventIn(6)), 'srq_limit.concurrent.not-above', 'unwarranted-event', 4);
  });

  it('not-above, an event recorded inside its receive while the SRQ may be below: no verdict', () => {
    const h = history({}, post(0, 1, 1, 2), arm(2, 3, 2), recv(4, 6, 1), eventIn(5), recv(7, 8, 2));
    expectLinearizable(h);
  });

  it('fires-below is conservative: no verdict when another arm may have come between', () => {
    const h = history({}, post(0, 1, 1, 2), arm(2, 3, 2), arm(4, 20, 0), recv(5, 6, 1));
    expect(checkHistory(h).linearizable).toBe(true);
  });

  it('reports the first few of each kind and counts them all', () => {
    const ops: Rec[] = [];
    for (let i = 0; i < 1000; i++) ops.push(recv(2 * i, 2 * i + 1, 10_000 + i));
    const outcome = checkHistory(history({}, ...ops));
    expect(outcome.violations).toHaveLength(REPORTED_PER_KIND);
    expect(outcome.counts).toEqual([{ clause: 'post_srq_recv.concurrent.exactly-once', kind: 'invented', count: 1000 }]);
    expect(outcome.violations[0]?.message).toContain('wr_id 10000');
  });

  it('counts every WQE a post lost in one entry', () => {
    const outcome = checkHistory(history({}, post(0, 1, 1, 5), post(2, 3, 6, 1), recv(4, 5, 6)));
    expect(outcome.counts).toEqual([{ clause: 'post_srq_recv.concurrent.fifo', kind: 'lost', count: 5 }]);
    expect(outcome.violations[0]?.message).toMatch(/^5 WQEs, the first wr_id 1 /);
  });

  it('refuses a history that posts one wr_id twice (the workload must keep them unique)', () => {
    expect(() => checkHistory(history({}, post(0, 1, 1, 3), post(2, 3, 3, 1)))).toThrow(/records 0 and 1 both posted wr_id 3/);
  });
});

// ---- generated histories against the exhaustive search -----------------------------------------

type Action =
  | { t: 'post'; count: number; actor: number }
  | { t: 'recv'; consumer: number }
  | { t: 'resize'; max_wr: number }
  | { t: 'arm'; srq_limit: number }
  | { t: 'event' };

interface Scenario {
  max_wr: number;
  capacity: 'exact' | 'at-least';
  /** How far past max_wr an 'at-least' SRQ really holds. */
  slack: number;
  srq_limit: number;
  /** Events recorded inside the receive that raised them (at its instant) rather than read later. */
  sync: boolean;
  actions: Action[];
  widen: [number, number][];
  corruption: { what: Corruption; pick: number; other: number } | null;
}

const ENOMEM = 12;
const EINVAL = 22;

/**
 * A sequential run of the bounded FIFO (the model the search checks), one action at each of the
 * times 10, 20, ...; each operation's interval is then widened around its instant, so the run's
 * own order stays a valid linearization: the history is linearizable by construction.
 */
function simulate(sc: Scenario): Rec[] {
  const out: Rec[] = [];
  const queue: number[] = [];
  let max_wr = sc.max_wr;
  let capacity = sc.max_wr + (sc.capacity === 'exact' ? 0 : sc.slack);
  let limit = sc.srq_limit;
  let pending = 0;
  let nextId = 1;
  let k = 0;
  const span = (t: number): [number, number] => {
    const [l, r] = sc.widen[k++ % sc.widen.length] ?? [0, 0];
    return [Math.max(0, t - l), t + r];
  };
  sc.actions.forEach((a, i) => {
    const t = 10 * (i + 1);
    switch (a.t) {
      case 'post': {
        let accepted = 0;
        while (accepted < a.count && queue.length < capacity) queue.push(nextId + accepted++);
        out.push([a.actor, 0, ...span(t), nextId, a.count, accepted < a.count ? ENOMEM : 0, accepted]);
        nextId += a.count;
        break;
      }
      case 'recv': {
        const x = queue.shift();
        if (x === undefined) break;
        out.push([10 + a.consumer, 1, ...span(t), x, 0, a.consumer, 0]);
        if (limit > 0 && queue.length < limit) {
          limit = 0;
          if (sc.sync) out.push(eventIn(t));
          else pending++;
        }
        break;
      }
      case 'resize': {
        const ok = a.max_wr >= queue.length && limit <= a.max_wr;
        if (ok) {
          max_wr = a.max_wr;
          capacity = max_wr + (sc.capacity === 'exact' ? 0 : sc.slack);
        }
        out.push([20, 2, ...span(t), a.max_wr, ok ? 0 : EINVAL, 0, 0]);
        break;
      }
      case 'arm': {
        const ok = a.srq_limit <= max_wr;
        if (ok) limit = a.srq_limit;
        out.push([21, 3, ...span(t), a.srq_limit, ok ? 0 : EINVAL, 0, 0]);
        break;
      }
      case 'event':
        if (pending > 0) {
          pending--;
          out.push(event(t));
        }
    }
  });
  const end = 10 * (sc.actions.length + 1);
  for (; pending > 0; pending--) out.push(event(end));
  return out;
}

const CORRUPTIONS = ['drop-recv', 'dup-recv', 'swap-recv', 'flip-errno', 'fail-status', 'early-recv', 'drop-event', 'add-event'] as const;
type Corruption = (typeof CORRUPTIONS)[number];
/** Without arms the event corruptions only test the trivial "an event with no arming". */
const FIFO_CORRUPTIONS = CORRUPTIONS.filter((c) => c !== 'drop-event' && c !== 'add-event');

/** One corruption of a generated history; some leave it linearizable (that is the point of comparing). */
function corrupt(records: Rec[], c: Scenario['corruption']): Rec[] {
  if (c === null) return records;
  const out = records.map((r) => [...r]);
  const ofKind = (kind: number) => out.map((r, i) => [r, i] as const).filter(([r]) => r[1] === kind);
  const nth = <T>(xs: readonly T[], n: number) => xs[n % Math.max(1, xs.length)];
  const recvs = ofKind(1);
  const r = nth(recvs, c.pick);
  switch (c.what) {
    case 'drop-recv':
      if (r) out.splice(r[1], 1);
      break;
    case 'dup-recv':
      if (r) out.push([r[0][0] as number, 1, (r[0][2] as number) + 3, (r[0][3] as number) + 3, r[0][4] as number, 0, r[0][6] as number, 0]);
      break;
    case 'swap-recv': {
      const s = nth(recvs, c.other);
      if (r && s) [r[0][4], s[0][4]] = [s[0][4] as number, r[0][4] as number];
      break;
    }
    case 'flip-errno': {
      const p = nth(ofKind(0), c.pick)?.[0];
      if (p === undefined) break;
      if (p[6] === 0) {
        p[6] = c.other % 2 === 0 ? ENOMEM : EINVAL;
        p[7] = (p[5] as number) - 1;
      } else {
        p[6] = 0;
        p[7] = p[5] as number;
      }
      break;
    }
    case 'fail-status':
      if (r) r[0][5] = 5;
      break;
    case 'early-recv':
      if (r) [r[0][2], r[0][3]] = [0, 1];
      break;
    case 'drop-event': {
      const e = nth(ofKind(4), c.pick);
      if (e) out.splice(e[1], 1);
      break;
    }
    case 'add-event':
      out.push(event(5 * (c.pick % 30), c.other % 2));
  }
  return out;
}

const action = (o: { maxWr: number; limits: boolean }): fc.Arbitrary<Action> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ t: fc.constant('post' as const), count: fc.integer({ min: 1, max: 3 }), actor: fc.integer({ min: 0, max: 1 }) }) },
    { weight: 4, arbitrary: fc.record({ t: fc.constant('recv' as const), consumer: fc.integer({ min: 0, max: 1 }) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('resize' as const), max_wr: fc.integer({ min: o.maxWr === 100 ? 100 : 1, max: o.maxWr === 100 ? 200 : 4 }) }) },
    ...(o.limits
      ? [
          { weight: 1, arbitrary: fc.record({ t: fc.constant('arm' as const), srq_limit: fc.integer({ min: 0, max: 3 }) }) },
          { weight: 1, arbitrary: fc.record({ t: fc.constant('event' as const) }) },
        ]
      : []),
  );

const width = fc.oneof(fc.constant(0), fc.nat(6), fc.nat(25));

const scenario = (o: { bounded: boolean; limits: boolean; actions: number; corrupt: readonly Corruption[] }): fc.Arbitrary<Scenario> =>
  fc.record({
    max_wr: o.bounded ? fc.integer({ min: 1, max: 3 }) : fc.constant(100),
    capacity: o.bounded ? fc.constantFrom('exact' as const, 'at-least' as const) : fc.constant('at-least' as const),
    slack: fc.integer({ min: 0, max: 2 }),
    srq_limit: o.limits ? fc.integer({ min: 0, max: 2 }) : fc.constant(0),
    sync: fc.boolean(),
    actions: fc.array(action({ maxWr: o.bounded ? 3 : 100, limits: o.limits }), { minLength: 1, maxLength: o.actions }),
    // Mostly narrow (so a corruption is visible), some up to 2.5 steps either side (so a few
    // operations overlap each other and the order is left to the checker).
    widen: fc.array(fc.tuple(width, width), { minLength: 1, maxLength: 12 }),
    corruption:
      o.corrupt.length > 0
        ? fc.option(fc.record({ what: fc.constantFrom(...o.corrupt), pick: fc.nat(), other: fc.nat() }), { freq: 4 })
        : fc.constant(null),
  });

const asHistory = (sc: Scenario, records: Rec[]): ConcurrentHistory => ({ max_wr: sc.max_wr, srq_limit: sc.srq_limit, capacity: sc.capacity, records: records.flat() });

describe('checkHistory: lands-in-own-sges (a receive\'s payload in its own WR\'s SGEs)', () => {
  const PLACEMENT = 'post_srq_recv.concurrent.lands-in-own-sges';

  it('receives whose payload landed in their WR\'s buffer, or that were not checked, pass', () => {
    expectLinearizable(history({}, post(0, 5, 1, 3), recv(6, 8, 1, { placed: Placement.OK }), recv(9, 10, 2), recv(11, 12, 3, { placed: Placement.OK })));
  });

  it('a receive whose payload is not in its WR\'s buffer: the post and the receive show it', () => {
    const v = expectOnly(history({}, post(0, 5, 1, 2), recv(6, 8, 1, { placed: Placement.OK }), recv(7, 9, 2, { placed: Placement.ELSEWHERE })), PLACEMENT, 'misplaced', 2);
    expect(v?.message).toMatch(/record 2 completed wr_id 2 \(posted by record 0\) with the SEND's length, but the SEND's payload is not in that WR's buffer/);
    expect(v?.witness.map((op) => op.kind)).toEqual(['post', 'recv']);
  });

  it('a receive that failed or came up short, though its WR\'s SGEs held the payload', () => {
    const failed = expectOnly(history({}, post(0, 5, 1, 1), recv(6, 8, 1, { status: 4, placed: Placement.BAD_LENGTH })), PLACEMENT, 'bad-length', 2);
    expect(failed?.message).toMatch(/completed wr_id 1 \(posted by record 0\) with status 4/);
    const short = expectOnly(history({}, post(0, 5, 1, 1), recv(6, 8, 1, { placed: Placement.BAD_LENGTH })), PLACEMENT, 'bad-length', 2);
    expect(short?.message).toMatch(/with a byte_len other than the SEND's payload/);
  });

  it('counts every misplaced receive, reporting the first few', () => {
    const n = REPORTED_PER_KIND + 3;
    const ops = [post(0, 5, 1, n), ...Array.from({ length: n }, (_, k) => recv(6 + 2 * k, 7 + 2 * k, 1 + k, { placed: Placement.ELSEWHERE }))];
    const outcome = checkHistory(history({ max_wr: 64 }, ...ops));
    expect(outcome.counts).toEqual([{ clause: PLACEMENT, kind: 'misplaced', count: n }]);
    expect(outcome.violations).toHaveLength(REPORTED_PER_KIND);
  });
});

describe('checkHistory against the exhaustive search', () => {
  it('agrees exactly where the checker is exact: an SRQ that never fills, no limit', () => {
    // max_wr 100 with at most 30 WRs: the capacity and ENOMEM bounds (conservative) never decide
    // a correct run's outcome, and without arms or events neither do the limit rules. What is left
    // is the FIFO with unique values, where the aspect checks are exact.
    fc.assert(
      fc.property(scenario({ bounded: false, limits: false, actions: 10, corrupt: FIFO_CORRUPTIONS }), (sc) => {
        const h = asHistory(sc, corrupt(simulate(sc), sc.corruption));
        const outcome = checkHistory(h);
        expect(outcome.linearizable).toBe(linearizableBySearch(h));
        for (const v of outcome.violations) expect(linearizableBySearch({ ...h, records: encodeOperations(v.witness) })).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('is sound everywhere: correct runs pass, and every violation it reports the search confirms, witness alone included', () => {
    // Bounded, both capacities, ENOMEM, resizes, arms and events: here the checker may miss a
    // violation (its capacity and limit rules are conservative), so only this direction holds.
    fc.assert(
      fc.property(scenario({ bounded: true, limits: true, actions: 9, corrupt: CORRUPTIONS }), (sc) => {
        const h = asHistory(sc, corrupt(simulate(sc), sc.corruption));
        const outcome = checkHistory(h);
        if (sc.corruption === null) {
          expect(outcome.violations).toEqual([]);
          expect(linearizableBySearch(h)).toBe(true);
        }
        if (outcome.linearizable) return;
        expect(linearizableBySearch(h)).toBe(false);
        for (const v of outcome.violations) {
          const alone = { ...h, records: encodeOperations(v.witness) };
          expect(checkHistory(alone).violations.map((w) => w.clause)).toContain(v.clause);
          if (v.witness.length <= 14) expect(linearizableBySearch(alone)).toBe(false);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('in long corrupted runs, every witness fails on its own', () => {
    fc.assert(
      fc.property(scenario({ bounded: true, limits: true, actions: 200, corrupt: CORRUPTIONS }), (sc) => {
        const h = asHistory(sc, corrupt(simulate(sc), sc.corruption));
        for (const v of checkHistory(h).violations) {
          const alone = { ...h, records: encodeOperations(v.witness) };
          expect(checkHistory(alone).violations.map((w) => w.clause)).toContain(v.clause);
          if (v.witness.length <= 10) expect(linearizableBySearch(alone)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('passes long correct runs of the bounded SRQ', () => {
    fc.assert(
      fc.property(scenario({ bounded: true, limits: true, actions: 300, corrupt: [] }), (sc) => {
        expect(checkHistory(asHistory(sc, simulate(sc))).violations).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
