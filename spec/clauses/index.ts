import { postSrqRecvClauses } from './post_srq_recv.js';
import { Clause } from './schema.js';

/** Every clause, validated once at load: a malformed record is a bug in this repository. */
export const clauses: readonly Clause[] = Clause.array().parse([...postSrqRecvClauses]);

export const clauseById: ReadonlyMap<string, Clause> = new Map(clauses.map((c) => [c.id, c]));
