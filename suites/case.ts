import type { Capability } from '../adapters/adapter.js';
import { clauseById } from '../spec/clauses/index.js';
import type { CaseContext } from './context.js';

/**
 * A shared case: it names the clauses it checks (and must record a check for each), and the
 * capabilities it needs; the runner skips it, with the reason, where one is missing.
 */
export interface Case {
  readonly id: string;
  readonly verb: string;
  readonly title: string;
  readonly clauses: readonly string[];
  readonly requires: readonly Capability[];
  run(ctx: CaseContext): Promise<void>;
}

/** What a report says of a case: everything but its body (a hostile scenario's body is a C program). */
export type CaseHeading = Omit<Case, 'run'>;

/** Declares a case; a clause id that does not exist is a bug here, so it throws at load. */
export function defineCase(def: Omit<Case, 'requires'> & { requires?: readonly Capability[] }): Case {
  if (!/^[a-z_]+\/[a-z0-9_.-]+$/.test(def.id)) throw new Error(`case id ${def.id} is not verb/name in lower case`);
  if (def.clauses.length === 0) throw new Error(`case ${def.id} names no clause`);
  for (const id of def.clauses) {
    if (!clauseById.has(id)) throw new Error(`case ${def.id} names unknown clause ${id}`);
  }
  return { requires: [], ...def };
}
