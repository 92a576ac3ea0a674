// A case outside rvt-conform: it names the clauses it checks (existing ones, from `rvt-conform
// list`), records a check for each, and runs on any adapter.
import { defineCase } from 'rvt-conform';

export const threeListsInARow = defineCase({
  id: 'post_srq_recv/three-lists-in-a-row',
  verb: 'post_srq_recv',
  title: 'Three lists of two WRs, posted one after another to an SRQ with room for them, each return 0',
  clauses: ['post_srq_recv.return.zero-on-success'],
  requires: ['srq'],
  async run(ctx) {
    const pd = await ctx.pd();
    const { srq } = await ctx.srq(pd, { max_wr: 8, max_sge: 1 });
    for (let list = 0; list < 3; list++) {
      const wrs = [0, 1].map((i) => ({ wr_id: BigInt(list * 2 + i), num_sge: 0, sg_list: [] }));
      const posted = await ctx.verbs.postSrqRecv({ srq, wrs });
      ctx.check.equal('post_srq_recv.return.zero-on-success', `list ${list + 1} returns 0`, 0, posted.rawReturn);
    }
  },
});
