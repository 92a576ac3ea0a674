import { type ObservedContext, PostContext, type RawPostOutcome } from '../spec/verbs/outcome.js';
import type { Handle } from '../spec/verbs/ints.js';
import type { RecvWrInput, SendWrInput } from '../spec/verbs/wr.js';
import { type Case, defineCase } from './case.js';
import type { CaseContext } from './context.js';
import { DEFAULT_CAP, bringUp, registerBuffer, tryCreateQp } from './fixtures.js';

const NOT_OBSERVABLE =
  "whether the driver's post may run in interrupt context is seen only by calling it from a kernel module (the kernel adapter, which declares post_contexts); this adapter cannot";

/** How the module's report shows that a post ran in the context asked for. */
const SEEN: Record<Exclude<PostContext, 'process'>, { how: string; holds: (c: ObservedContext) => boolean }> = {
  'irqs-off': { how: 'irqs_disabled()', holds: (c) => c.irqs_disabled },
  softirq: { how: 'in_serving_softirq()', holds: (c) => c.softirq },
  hardirq: { how: 'in_hardirq()', holds: (c) => c.hardirq },
};

/** What is compared between contexts: the verb's own answer, not where it was called from. */
const answer = (o: RawPostOutcome) => ({ rawReturn: o.rawReturn, badWr: o.badWr });

interface Poster {
  /** A list the driver accepts, and a list whose second WR it must reject (num_sge above the maximum). */
  good: () => RecvWrInput[] | SendWrInput[];
  bad: () => RecvWrInput[] | SendWrInput[];
  post(wrs: RecvWrInput[] | SendWrInput[], context: PostContext): Promise<RawPostOutcome>;
}

/**
 * Posts the same two lists from every context the adapter offers (process, interrupts off,
 * softirq, hard IRQ): each post must come back, give the process-context answer, and the hard-IRQ
 * post must have run in hard-IRQ context. A splat in the kernel log fails the case on its own
 * (the adapter's watch).
 */
async function checkContexts(ctx: CaseContext, clause: string, poster: Poster): Promise<void> {
  const reference = { good: answer(await poster.post(poster.good(), 'process')), bad: answer(await poster.post(poster.bad(), 'process')) };
  ctx.check.equal(clause, 'process context: the valid list is posted, the invalid one fails at WR 1', true, reference.good.rawReturn === 0 && reference.bad.rawReturn !== 0 && reference.bad.badWr === 1);
  for (const context of PostContext.options.filter((c): c is Exclude<PostContext, 'process'> => c !== 'process')) {
    const good = await poster.post(poster.good(), context);
    const bad = await poster.post(poster.bad(), context);
    ctx.check.equal(clause, `${context}: the same answers as from process context`, reference, { good: answer(good), bad: answer(bad) });
    const saw = SEEN[context];
    ctx.check.equal(clause, `the ${context} posts ran in that context (${saw.how})`, [true, true], [good.context, bad.context].map((c) => c !== undefined && saw.holds(c)));
  }
}

function contextCase(verb: string, clause: string, requires: Case['requires'], poster: (ctx: CaseContext) => Promise<Poster>): Case {
  return defineCase({
    id: `${verb}/interrupt-context`,
    verb,
    title: 'May be called from interrupt context: the same answers from hard IRQ, softirq and with interrupts off, and no splat',
    clauses: [clause],
    requires,
    async run(ctx) {
      if (!ctx.info.capabilities.includes('post_contexts')) {
        ctx.check.notObservable(clause, NOT_OBSERVABLE);
        return;
      }
      await checkContexts(ctx, clause, await poster(ctx));
    },
  });
}

let wrId = 0x100n;
const recvList = (buffer: { addr: bigint; lkey: number }, badNumSge?: number): RecvWrInput[] => [
  { wr_id: wrId++, sg_list: [{ addr: buffer.addr, length: 64, lkey: buffer.lkey }] },
  ...(badNumSge === undefined ? [] : [{ wr_id: wrId++, sg_list: [{ addr: buffer.addr, length: 64, lkey: buffer.lkey }], num_sge: badNumSge }]),
];

async function qpInInit(ctx: CaseContext, pd: Handle) {
  const r = await tryCreateQp(ctx.verbs, pd, { qp_type: 'RC', cap: DEFAULT_CAP });
  if (r.qp === null || r.cap === null) throw new Error(`createQp failed: ${r.errno}`);
  await bringUp(ctx.verbs, r.qp, 0, 'INIT');
  return { qp: r.qp, cap: r.cap };
}

export const interruptContextCases: readonly Case[] = [
  contextCase('post_srq_recv', 'post_srq_recv.context.interrupt', ['srq'], async (ctx) => {
    const pd = await ctx.pd();
    const { srq, attr } = await ctx.srq(pd, { max_wr: 64 });
    const buffer = await registerBuffer(ctx.verbs, pd);
    return {
      good: () => recvList(buffer),
      bad: () => recvList(buffer, attr.max_sge + 1),
      post: (wrs, context) => ctx.verbs.postSrqRecv({ srq, wrs: wrs as RecvWrInput[], context }),
    };
  }),
  contextCase('post_recv', 'post_recv.context.interrupt', [], async (ctx) => {
    const pd = await ctx.pd();
    const { qp, cap } = await qpInInit(ctx, pd);
    const buffer = await registerBuffer(ctx.verbs, pd);
    return {
      good: () => recvList(buffer),
      bad: () => recvList(buffer, cap.max_recv_sge + 1),
      post: (wrs, context) => ctx.verbs.postRecv({ qp, wrs: wrs as RecvWrInput[], context }),
    };
  }),
  contextCase('post_send', 'post_send.context.interrupt', ['rc_loopback'], async (ctx) => {
    const pair = await ctx.loopback();
    const { buffer } = pair;
    // An RDMA WRITE into the pair's own buffer: it completes without a receive on the other side.
    const write = (num_sge?: number): SendWrInput => ({
      wr_id: wrId++,
      opcode: 'RDMA_WRITE',
      sg_list: [{ addr: buffer.addr, length: 8, lkey: buffer.lkey }],
      rdma: { remote_addr: buffer.addr + 64n, rkey: buffer.rkey },
      ...(num_sge === undefined ? {} : { num_sge }),
    });
    return {
      good: () => [write()],
      bad: () => [write(), write(pair.sender.cap.max_send_sge + 1)],
      post: (wrs, context) => ctx.verbs.postSend({ qp: pair.sender.qp, wrs: wrs as SendWrInput[], context }),
    };
  }),
];
