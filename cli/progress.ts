import type { CaseStatus } from '../reports/results-schema.js';
import type { CaseRun, RunEvent } from '../suites/runner.js';

export type ProgressMode = 'live' | 'plain' | 'quiet';

/** The part of a stream progress needs, so tests can pass a plain recorder. */
export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Progress {
  onEvent(event: RunEvent): void;
  /** After the last case, or when the run stopped early: clears the live line, says what was kept. */
  end(outcome: { interrupted: boolean; ran: number; total: number }): void;
}

/** What fails the gate: a failure, a harness error, a pass against an expectation. */
const failing = (status: CaseStatus) => status === 'fail' || status === 'error' || status === 'xpass';

/**
 * Progress while a run goes: on a terminal one live line (done / total, failures so far, the
 * current case); without a terminal, or in CI, one plain line per finished case, which a CI log
 * keeps readable; nothing when quiet. Always on stderr: stdout is for the summary or --json.
 * `statusOf` gives a case's status as results.json will have it: an expected failure reads as
 * xfail and does not count as failing (the runner itself knows nothing of expectations).
 */
export function progressPrinter(stream: ProgressStream, mode: ProgressMode, statusOf: (run: CaseRun) => CaseStatus = (run) => run.status): Progress {
  let failures = 0;
  // A live line longer than the terminal wraps, and \r then redraws only its last part.
  const fit = (line: string) => (stream.columns ? line.slice(0, stream.columns - 1) : line);
  return {
    onEvent(event) {
      if (mode === 'quiet') return;
      if (event.type === 'case-start') {
        if (mode === 'live') stream.write(`\r\x1b[K${fit(`[${event.index}/${event.total}] ${failures} failing  ${event.case.id}`)}`);
        return;
      }
      const status = statusOf(event.run);
      if (failing(status)) failures++;
      if (mode === 'plain') stream.write(`[${event.index + 1}/${event.total}] ${status.padEnd(14)} ${event.run.case.id}\n`);
    },
    end({ interrupted, ran, total }) {
      if (mode === 'quiet') return;
      if (mode === 'live') stream.write('\r\x1b[K');
      if (interrupted) stream.write(`interrupted after ${ran} of ${total} cases: the results are written, marked interrupted, the cases not reached listed as skipped\n`);
    },
  };
}

/** Live only on a terminal outside CI; CI logs and pipes get plain lines. */
export function progressMode(quiet: boolean, stream: ProgressStream = process.stderr, env: NodeJS.ProcessEnv = process.env): ProgressMode {
  if (quiet) return 'quiet';
  return stream.isTTY && !env.CI ? 'live' : 'plain';
}
