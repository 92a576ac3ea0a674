import type { Source } from '../spec/clauses/schema.js';
import type { ClauseStatus } from './results-schema.js';

/** How each status reads in the human-facing reports; a new status without a label is a compile error. */
export const STATUS_LABEL: Record<ClauseStatus, string> = {
  pass: 'pass',
  fail: 'FAIL',
  error: 'ERROR',
  skip: 'skip',
  'not-observable': 'not observable',
  xfail: 'expected fail',
  xpass: 'UNEXPECTED PASS',
  'not-run': 'not run',
};

/** The statuses someone has to act on: a failure, a harness error, a stale expectation. */
export const needsAttention = (status: ClauseStatus): boolean => status === 'fail' || status === 'error' || status === 'xpass';

/** A clause source in one line, the same in every report. */
export function describeSource(source: Source): string {
  switch (source.kind) {
    case 'kernel-doc':
      return `kernel-doc ${source.function}() ${source.section}`;
    case 'kernel-code':
      return `${source.function}() code`;
    case 'man-page':
      return `${source.page} ${source.section}`;
    case 'ib-spec':
      return `IBA ${source.ref}`;
  }
}
