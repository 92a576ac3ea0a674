import { z } from 'zod';

/**
 * The statuses, defined once on the ground floor: the runner, the checks and the results schema
 * all name these, so a status added here reaches every layer at once.
 */

/** What one check found: `not-observable` when the adapter cannot show the behaviour (with the reason). */
export const CheckStatus = z.enum(['pass', 'fail', 'not-observable']);
export type CheckStatus = z.infer<typeof CheckStatus>;

/** A case's verdict as the runner gives it, before any expectations file applies. */
export const RunStatus = z.enum([...CheckStatus.options, 'error', 'skip']);
export type RunStatus = z.infer<typeof RunStatus>;

/** `xfail` (an expected failure happened) and `xpass` (an expected failure passed) exist only where an expectation applied. */
export const CaseStatus = z.enum([...RunStatus.options, 'xfail', 'xpass']);
export type CaseStatus = z.infer<typeof CaseStatus>;

/** A clause's verdict over the cases that check it; `not-run` when none of them ran. */
export const ClauseStatus = z.enum([...CaseStatus.options, 'not-run']);
export type ClauseStatus = z.infer<typeof ClauseStatus>;

/**
 * "Did the case run", separate from what its checks found: `capability-missing` (the adapter does
 * not declare what it needs), `precondition-failed` (a verb it does not test refused its setup),
 * `not-run` (an expectation skips it, the run was interrupted, or the kernel went down before it).
 */
export const Ran = z.enum(['ok', 'error', 'timeout', 'crash', 'capability-missing', 'precondition-failed', 'not-run']);
export type Ran = z.infer<typeof Ran>;
