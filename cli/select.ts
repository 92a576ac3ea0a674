import { runInNewContext } from 'node:vm';
import picomatch from 'picomatch';
import type { Case } from '../suites/case.js';
import { UserError } from '../spec/errors.js';

/** Far longer than any id or list of ids (picomatch itself throws past 65536, with no word of which flag). */
export const MAX_GLOB_CHARS = 1024;

/** Compiling and matching the ids takes milliseconds; a pattern that takes this long backtracks, and could for minutes. */
export const MATCH_BUDGET_MS = 2000;

const HINT = "give a case id or a simple glob, e.g. --case 'post_srq_recv/*' or '{post_srq_recv/*,post_send/*}' (rvt-conform list shows the ids)";

/**
 * Cases whose id matches the --case glob (all when none is given). No match is a usage error. The
 * glob is matched within a time budget (a vm script's timeout interrupts a regex that backtracks):
 * nested extglobs (`+(+(a|aa))`) or many wildcards between literals (`*a*a*a*a*a*a*a*z`) turn into
 * regular expressions that backtrack for minutes on an id that does not match.
 */
export function selectCases(cases: readonly Case[], glob: string | undefined): Case[] {
  if (glob === undefined) return [...cases];
  if (glob.trim() === '') throw new UserError('--case is empty', { hint: "give a case id or a glob, e.g. --case 'post_srq_recv/*', or drop --case to run every case" });
  if (glob.length > MAX_GLOB_CHARS) throw new UserError(`--case is ${glob.length} characters long, more than ${MAX_GLOB_CHARS}`, { hint: HINT });
  const select = () => {
    const matches = picomatch(glob);
    return cases.filter((c) => matches(c.id) || matches(c.verb));
  };
  let selected: Case[];
  try {
    selected = runInNewContext('select()', { select }, { timeout: MATCH_BUDGET_MS }) as Case[];
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new UserError(`--case '${glob}' took more than ${MATCH_BUDGET_MS / 1000} s to match the case ids: the pattern backtracks (nested extglobs, or many wildcards)`, { hint: HINT });
    }
    throw new UserError(`--case '${glob}' is not a glob: ${error instanceof Error ? error.message : String(error)}`, { hint: HINT });
  }
  if (selected.length === 0) {
    throw new UserError(`--case '${glob}' matches no case`, { hint: "run 'rvt-conform list' to see the case ids (e.g. 'post_srq_recv/*')" });
  }
  return selected;
}
