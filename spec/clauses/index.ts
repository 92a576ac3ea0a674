import { concurrentClauses } from './concurrent.js';
import { errorClauses } from './errors.js';
import { postRecvClauses } from './post_recv.js';
import { postSendClauses } from './post_send.js';
import { postSrqRecvClauses } from './post_srq_recv.js';
import { qpLifecycleClauses } from './qp_lifecycle.js';
import { remoteClauses } from './remote.js';
import { srqLifecycleClauses } from './srq_lifecycle.js';
import { srqLimitClauses } from './srq_limit.js';
import { Clause } from './schema.js';

/** Every clause, validated once at load: a malformed record is a bug in this repository. */
export const clauses: readonly Clause[] = Clause.array().parse([
  ...postSrqRecvClauses,
  ...postRecvClauses,
  ...postSendClauses,
  ...remoteClauses,
  ...qpLifecycleClauses,
  ...srqLifecycleClauses,
  ...srqLimitClauses,
  ...errorClauses,
  ...concurrentClauses,
]);

export const clauseById: ReadonlyMap<string, Clause> = new Map(clauses.map((c) => [c.id, c]));
