import type { Clause, Source, Transport } from './schema.js';
import { IB_VERBS_H, kdoc, man, stopsAtFirst } from './sources.js';

export type PostVerb = 'post_srq_recv' | 'post_recv' | 'post_send';

/**
 * What one post verb brings to the family: its names, and where rdmavt's code takes each path.
 * The statements, levels and documented sources are the family's, so every post verb is held
 * to the same contract and only the facts differ.
 */
export interface PostVerbFacts {
  verb: PostVerb;
  /** The rdmavt function, whose kernel-doc the documented clauses cite. */
  fn: string;
  /** The core wrapper in ib_verbs.h every kernel caller goes through, and its bad_wr parameter. */
  core: { fn: string; badWr: string };
  covers: string[];
  /** The libibverbs man page, e.g. `ibv_post_send(3)`. */
  man: string;
  /** What the verb posts to, in a sentence: `the SRQ`, `the receive queue`. */
  queue: string;
  /** The capacity and sge limit as create and query name them. */
  maxWr: string;
  maxSge: string;
  /** The man page that documents the capacity field, with its quote. */
  capacityDoc: Source;
  /** The functions beyond the post verb that size the queue (create, query, the free-slot check). */
  capacityFns: string[];
  code: {
    successLeavesBadWr: Source;
    tooManyEinval: Source;
    zeroAccepted: Source;
    /** How rdmavt treats the empty list (wr = NULL). */
    emptyList: Source;
    full: Source;
    /** Where the capacity create and query report comes from. */
    asReported: Source[];
    numSgeBeforeFull: Source;
    nothingRolledBack: Source;
  };
  /** rdmavt's answer to the empty list: 0 (its loop runs zero times), or none (it dereferences the list: an oops). */
  emptyListReturns: 'zero' | 'oops';
  /** rdmavt's answer to num_sge -1: refused (compared unsigned), or posted with no sges (compared signed). */
  negativeNumSge: { outcome: 'einval' | 'posts-none'; source: Source };
  /** QP verbs only: the QP state gate. */
  state?: {
    rejects: readonly string[];
    accepts: readonly string[];
    /** Why the states that refuse do (IBA), and why the others accept. */
    rejectsSources: Source[];
    acceptsSources: Source[];
    /** rdmavt's refusal: EINVAL, and whether it writes bad_wr there. */
    einval: { writesBadWr: boolean; source: Source };
    transports?: Transport[];
  };
}

const list = (names: readonly string[]) => names.join(', ').replace(/, ([^,]+)$/, ' and $1');

/** The clauses every post verb has (return, bad_wr, partial posting, num_sge, empty list, full, state, context). */
export function postFamilyClauses(f: PostVerbFacts): Clause[] {
  const { verb, fn, covers } = f;
  const STOPS = stopsAtFirst(f.man);
  const id = (suffix: string) => `${verb}.${suffix}`;
  const clause = (suffix: string, statement: string, level: Clause['level'], sources: Source[], extra: Partial<Clause> = {}): Clause => ({
    id: id(suffix),
    verb,
    statement,
    sources,
    level,
    covers,
    ...extra,
  });
  const sizing = { covers: [...covers, ...f.capacityFns] };
  const bare = f.queue.replace(/^the /, '');
  const negative =
    f.negativeNumSge.outcome === 'einval'
      ? clause('num_sge.negative-einval', 'A negative num_sge is refused with EINVAL, bad_wr at it (rdmavt compares num_sge unsigned).', 'reference', [f.negativeNumSge.source])
      : clause('num_sge.negative-posts-none', 'A WR with num_sge -1 is accepted and posted with no sges (rdmavt compares an int with its u8 limit).', 'reference', [f.negativeNumSge.source]);
  const clauses: Clause[] = [
    clause('return.zero-on-success', 'A list whose every WR can be posted returns 0, and every WR of it is posted.', 'documented', [kdoc(fn, 'Return'), man(f.man, 'RETURN VALUE', 'returns 0 on success')]),
    clause('bad_wr.untouched-on-success', 'On success, rdmavt does not write bad_wr (rdma-core providers such as rxe set it to NULL on entry).', 'reference', [f.code.successLeavesBadWr]),
    clause('return.errno-sign', "A failed post returns an errno with the layer's sign: negative in the kernel, positive through libibverbs.", 'documented', [
      kdoc(fn, 'Return'),
      man(f.man, 'RETURN VALUE', 'or the value of errno on failure (which indicates the failure reason)'),
    ]),
    clause('bad_wr.first-failing', 'On failure, bad_wr points at the first WR of the list that could not be posted.', 'documented', [kdoc(fn, '@bad_wr'), kdoc(f.core.fn, `@${f.core.badWr}`, IB_VERBS_H), STOPS]),
    clause('partial.earlier-stay-posted', 'WRs before the failing one stay posted, in order.', 'documented', [STOPS, f.code.nothingRolledBack]),
    clause('partial.later-not-posted', 'Neither the failing WR nor any WR after it is posted.', 'documented', [STOPS]),
    clause('num_sge.too-many-rejected', `A WR with num_sge above ${f.maxSge} is refused at post time, bad_wr at it.`, 'documented', [STOPS, f.code.tooManyEinval]),
    clause('num_sge.too-many-einval', 'That refusal is EINVAL.', 'reference', [f.code.tooManyEinval]),
    negative,
    clause('num_sge.zero-accepted', 'A WR with num_sge 0 is accepted: it carries a zero-length message.', 'reference', [f.code.zeroAccepted]),
    // Whether an empty list is 0 or an error is not documented (rxe's provider says EINVAL); that it is answered is.
    clause('empty-list.answered', 'An empty list (wr = NULL) is answered, with 0 or an errno, and posts nothing.', 'documented', [
      kdoc(fn, 'Return'),
      man(f.man, 'RETURN VALUE', 'or the value of errno on failure (which indicates the failure reason)'),
      f.code.emptyList,
    ]),
    ...(f.emptyListReturns === 'zero' ? [clause('empty-list.zero', 'rdmavt returns 0 for an empty list.', 'reference', [f.code.emptyList])] : []),
    clause('full.rejected', `A WR beyond what ${f.queue} actually holds is refused, bad_wr at it.`, 'documented', [STOPS, f.capacityDoc], sizing),
    clause('capacity.as-reported', `rdmavt's ${bare} holds exactly the ${f.maxWr} that create and query report: the next WR is the one refused.`, 'reference', f.code.asReported, sizing),
    clause('full.enomem', `Posting to a full ${bare} fails with ENOMEM.`, 'reference', [f.code.full], sizing),
    clause(`capacity.at-least-${f.maxWr}`, `The granted ${f.maxWr} is at least the requested one, and that many WRs post.`, 'documented', [
      man(f.verb === 'post_srq_recv' ? 'ibv_create_srq(3)' : 'ibv_create_qp(3)', 'DESCRIPTION', f.verb === 'post_srq_recv' ? 'the values of max_wr and max_sge will be greater than or equal to the values requested' : 'the values will be greater than or equal to the values requested'),
    ], sizing),
    clause('order.num_sge-before-full', 'A WR that both has too many sges and meets a full queue fails for num_sge (EINVAL), not fullness.', 'reference', [f.code.numSgeBeforeFull]),
    clause('context.interrupt', `${fn} may be called from interrupt context (it does not sleep): from hard IRQ it gives the answers it gives from process context.`, 'documented', [kdoc(fn, 'description')], { covers: [fn] }),
  ];
  if (f.state !== undefined) {
    const s = f.state;
    const transports = s.transports === undefined ? {} : { transports: s.transports };
    clauses.push(
      clause('state.rejects', `Posting to a QP in ${list(s.rejects)} fails.`, 'documented', s.rejectsSources, transports),
      clause('state.bad_wr', `That failure sets bad_wr to the first WR: ${fn}'s kernel-doc and ${f.man} promise the first failing WR for every failure.`, 'documented', [kdoc(fn, '@bad_wr'), STOPS], transports),
      clause('state.einval', `rdmavt refuses the state with EINVAL and ${s.einval.writesBadWr ? 'writes bad_wr (the first WR)' : 'does not write bad_wr'}.`, 'reference', [s.einval.source], transports),
      clause('state.accepts', `${list(s.accepts)} accept posts.`, 'documented', s.acceptsSources),
    );
  }
  return clauses;
}
