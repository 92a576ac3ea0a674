import { clauseById } from '../../spec/clauses/index.js';
import { defineCase } from '../case.js';

const CLAUSE = 'post_srq_recv.context.interrupt';

export const contextCases = [
  defineCase({
    id: 'post_srq_recv/interrupt-context',
    verb: 'post_srq_recv',
    title: 'May be called from interrupt context',
    clauses: [CLAUSE],
    async run(ctx) {
      ctx.check.notObservable(CLAUSE, clauseById.get(CLAUSE)?.notObservable ?? 'not observable');
    },
  }),
];
