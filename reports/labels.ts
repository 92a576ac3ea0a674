import type { Source } from '../spec/clauses/schema.js';
import type { ClauseStatus, RunResults } from './results-schema.js';

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

/** The kernel a run judged, in one line: the VM's (release, form, config, accelerator) or the machine's; undefined for the model, which runs on none. */
export function kernelOfRun(results: Pick<RunResults, 'adapter' | 'environment'>): string | undefined {
  const vm = results.environment.vm;
  if (vm !== undefined) {
    const { release, form, describe, configHash } = vm.kernel;
    return `${release} (${form}${describe === undefined ? '' : `, ${describe}`}, config ${configHash}; ${vm.accel.toUpperCase()}${vm.accelWhy === undefined ? '' : `: ${vm.accelWhy}`})`;
  }
  return results.adapter.device.kernel;
}

/** What the run's report says of the booted kernel's own kernel-doc against the snapshot that judged it; undefined outside the VM. */
export function docDriftOfRun(results: Pick<RunResults, 'environment'>): string | undefined {
  const drift = results.environment.vm?.docDrift;
  if (drift === undefined) return undefined;
  if ('unknown' in drift) return `not checked: ${drift.unknown}`;
  if (drift.changes === 0) return `the booted kernel (linux ${drift.checked}) documents the cited files as the snapshot does (linux ${drift.pinned})`;
  const cited = drift.clauses.length === 0 ? 'no clause cites the changed text' : `clauses citing changed text: ${drift.clauses.join(', ')}`;
  return `the booted kernel (linux ${drift.checked}) documents the cited files differently from the snapshot that judged this run (linux ${drift.pinned}): ${drift.changes} change(s), ${cited} (rvt-conform spec check --kernel-src shows them)`;
}

/**
 * The expectations a run read, as every report names them (`quote` marks the file up, e.g. in
 * backticks). The model's own, applied without the flag, say so.
 */
export function expectationsOfRun(run: RunResults['run'], quote: (file: string) => string = (file) => file): string {
  if (run.expectations === null) return 'no expectations';
  return run.expectationsByDefault ? `the model's own expectations (${quote(run.expectations)}) applied by default` : `expectations ${quote(run.expectations)}`;
}

/** A clause source in one line, the same in every report. */
export function describeSource(source: Source): string {
  switch (source.kind) {
    case 'kernel-doc':
      return `kernel-doc ${source.function}() ${source.section}`;
    case 'kernel-code':
      return `${source.function}() code`;
    case 'man-page':
      return `${source.page} ${source.section}`;
    case 'kernel-docs':
      return `${source.file} ${source.section}`;
    case 'ib-spec':
      return `IBA ${source.ref}`;
  }
}
