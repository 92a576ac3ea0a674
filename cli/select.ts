import picomatch from 'picomatch';
import type { Case } from '../suites/case.js';
import { UserError } from '../spec/errors.js';

/** Cases whose id matches the --case glob (all when none is given). No match is a usage error. */
export function selectCases(cases: readonly Case[], glob: string | undefined): Case[] {
  if (glob === undefined) return [...cases];
  if (glob.trim() === '') throw new UserError('--case is empty', { hint: "give a case id or a glob, e.g. --case 'post_srq_recv/*', or drop --case to run every case" });
  const matches = picomatch(glob);
  const selected = cases.filter((c) => matches(c.id) || matches(c.verb));
  if (selected.length === 0) {
    throw new UserError(`--case '${glob}' matches no case`, { hint: "run 'rvt-conform list' to see the case ids (e.g. 'post_srq_recv/*')" });
  }
  return selected;
}
